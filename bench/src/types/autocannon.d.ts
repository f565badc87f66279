// The part of autocannon 9's programmatic API the bench uses (the package ships no types and
// @types/autocannon is not installed).
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      pipelining?: number;
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      workers?: number;
      expectBody?: string;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9?: number;
      sent?: number;
    }

    interface Result {
      url: string;
      connections: number;
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      '2xx': number;
      statusCodeStats: Record<string, { count: number }>;
      latency: Histogram;
      requests: Histogram;
      throughput: Histogram;
    }

    interface Instance {
      stop(): void;
    }
  }

  function autocannon(
    options: autocannon.Options,
    callback: (err: Error | null, result: autocannon.Result) => void,
  ): autocannon.Instance;
  export = autocannon;
}
