import type { SocketOptions } from '../../routing/socket-route';
import { methodTarget, misuse, type RouteMethodDecorator } from './targets';

/**
 * A WebSocket endpoint served by the decorated method, which returns the socket's handlers
 * (`{ open, message, close }`). The upgrade request goes through the controller's middleware
 * and security like its HTTP routes; the method's parameters (`@Param`, `@Query`, `@User`,
 * `@Req`) resolve on it, before the 101. `options` are `app.ws`'s: `messageModel`, `maxPayload`,
 * `security`, `middleware`, `summary`, `tags`…
 *
 * @example
 * @WebSocket('/{id:int}/live', { messageModel: ChatMessage })
 * live(@Param('id') id: number, @User() user: Account): SocketHandlers<ChatMessage> {
 *   return {
 *     open: (socket) => socket.join(`room:${id}`),
 *     message: (socket, data) => this.rooms.say(id, user, data.text),
 *   };
 * }
 */
export function WebSocket(path = '/', options: SocketOptions = {}): RouteMethodDecorator {
  if (typeof path !== 'string') throw misuse(`@WebSocket(path, options): path must be a string such as '/{id:int}/live'.`);
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw misuse(`@WebSocket('${path}', options): options must be an object.`);
  return (target, key, descriptor) => {
    const meta = methodTarget('@WebSocket', target, key, descriptor);
    meta.routes.unshift({ path, methods: ['GET'], options: { ...options }, socket: true });
  };
}
