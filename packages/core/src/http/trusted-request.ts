import { ForwardedView, type TrustFunction } from './proxy';
import { TernRequest, type UntypedParam } from './request';

/**
 * The request class of an app with `trustProxy` on: `ip`, `protocol` and `host` come from the
 * headers of trusted proxies. Built once per app, so apps without it keep the plain class and
 * every request of theirs pays nothing.
 */
export function trustingRequestClass(trust: TrustFunction): typeof TernRequest {
  return class TrustingRequest<P = Record<string, UntypedParam>> extends TernRequest<P> {
    private forwardedView?: ForwardedView;

    private get forwarded(): ForwardedView {
      return (this.forwardedView ??= new ForwardedView(this.raw, trust));
    }

    override get ip(): string | undefined {
      return this.forwarded.ip;
    }

    override get protocol(): string {
      return this.forwarded.protocol ?? super.protocol;
    }

    override get host(): string | undefined {
      return this.forwarded.host ?? super.host;
    }
  };
}
