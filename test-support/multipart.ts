/** One part of a hand-built multipart body: a text field, or a file when `filename` is given. */
export interface PartSpec {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

export const BOUNDARY = '----tern-test-boundary-7MA4YWxkTrZu0gW';

/** The headers of a multipart request with `BOUNDARY`. */
export function multipartHeaders(boundary = BOUNDARY): Record<string, string> {
  return { 'content-type': `multipart/form-data; boundary=${boundary}` };
}

/** A `multipart/form-data` body built by hand, as a browser would send it. */
export function multipartBody(parts: PartSpec[], boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType !== undefined || part.filename !== undefined) head += `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}
