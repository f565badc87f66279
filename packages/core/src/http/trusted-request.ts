import { ForwardedHeaderView } from './forwarded-header';
import { ForwardedView, type ProxyHeaders, type ProxyView, type TrustFunction } from './proxy';
import { TernRequest, type UntypedParam } from './request';

/**
 * The request class of an app with `trustProxy` on: `ip`, `protocol` and `host` come from the
 * headers of trusted proxies, of the one family the app reads. Built once per app, so apps
 * without it keep the plain class and every request of theirs pays nothing.
 */
export function trustingRequestClass(trust: TrustFunction, headers: ProxyHeaders = 'x-forwarded'): typeof TernRequest {
  const View = headers === 'forwarded' ? ForwardedHeaderView : ForwardedView;
  return class TrustingRequest<P = Record<string, UntypedParam>> extends TernRequest<P> {
    private forwardedView?: ProxyView;

    private get forwarded(): ProxyView {
      return (this.forwardedView ??= new View(this.raw, trust));
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
