/**
 * The contract's framing (as jPOS's PostChannel): each message is preceded by its length as a
 * 2-byte unsigned big-endian integer, not counting those two bytes, with no other header.
 */

/** The longest message a frame can carry. */
export const maxFrameLength = 0xffff;

export function frame(message: Buffer): Buffer {
  if (message.length === 0 || message.length > maxFrameLength) {
    throw new RangeError(`a frame carries 1 to ${maxFrameLength} bytes, not ${message.length}`);
  }
  const length = Buffer.alloc(2);
  length.writeUInt16BE(message.length);
  return Buffer.concat([length, message]);
}

/**
 * Cuts a TCP stream into messages: bytes arrive in any chunks, and each whole frame comes out
 * once all of it has. A zero length is no message (some hosts send it to keep a connection
 * alive) and is skipped.
 */
export class FrameReader {
  private buffered: Buffer = Buffer.alloc(0);

  /** The messages completed by `chunk`, in order. */
  push(chunk: Buffer): Buffer[] {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const messages: Buffer[] = [];
    while (this.buffered.length >= 2) {
      const length = this.buffered.readUInt16BE(0);
      if (this.buffered.length < 2 + length) break;
      if (length > 0) messages.push(this.buffered.subarray(2, 2 + length));
      this.buffered = this.buffered.subarray(2 + length);
    }
    return messages;
  }

  /** Bytes of a frame not yet whole: a connection closed with some is a message cut short. */
  get pending(): number {
    return this.buffered.length;
  }
}
