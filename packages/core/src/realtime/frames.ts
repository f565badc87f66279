/**
 * The data frames Tern sends, framed here (RFC 6455 §5.2: a server's frames are unmasked) in one
 * buffer each. `ws` still does everything else: the handshake, reading and checking frames,
 * ping/pong, the closing handshake.
 *
 * Why not `ws.send`: it frames every message again for every socket and writes the header and
 * the payload as two corked writes (a `writev`). A frame in one buffer is one plain write, and a
 * room's frame is built once for all its members. Writing beside `ws` keeps frames whole and in
 * order because `ws` writes synchronously when it has no queue, and its queue only fills while it
 * compresses or reads a Blob: Tern turns compression off and never hands it a Blob.
 */

const FIN = 0x80;
const TEXT = 0x1;
const BINARY = 0x2;

/** A final text frame carrying `text`, UTF-8 encoded straight after its header. */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text, 'utf8');
  const frame = withHeader(FIN | TEXT, length);
  // As many bytes as characters means every character is ASCII (any other takes 2 to 4 bytes),
  // whose UTF-8 bytes are its Latin-1 ones: Node copies those straight, where the UTF-8 encoder
  // takes about twice as long (most JSON is ASCII).
  frame.write(text, frame.length - length, length, length === text.length ? 'latin1' : 'utf8');
  return frame;
}

/** A final binary frame carrying `bytes`. */
export function binaryFrame(bytes: Uint8Array): Buffer {
  const frame = withHeader(FIN | BINARY, bytes.length);
  frame.set(bytes, frame.length - bytes.length);
  return frame;
}

/** A buffer for a frame of `length` payload bytes, its header written (7-bit, 16-bit or 64-bit length). */
function withHeader(first: number, length: number): Buffer {
  if (length < 126) {
    const frame = Buffer.allocUnsafe(2 + length);
    frame[0] = first;
    frame[1] = length;
    return frame;
  }
  if (length < 65_536) {
    const frame = Buffer.allocUnsafe(4 + length);
    frame[0] = first;
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
    return frame;
  }
  const frame = Buffer.allocUnsafe(10 + length);
  frame[0] = first;
  frame[1] = 127;
  // Lengths above 2^53 cannot occur (a Buffer is smaller): the high bytes are zero.
  frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
  frame.writeUInt32BE(length >>> 0, 6);
  return frame;
}
