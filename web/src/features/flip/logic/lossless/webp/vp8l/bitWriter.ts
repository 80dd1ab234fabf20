// Bits packed from the least significant bit of each byte, as VP8L reads them.

export class BitWriter {
  private buf: Uint8Array;
  private at = 0;
  private acc = 0;
  private used = 0;

  constructor(sizeHint = 4096) {
    this.buf = new Uint8Array(Math.max(64, sizeHint));
  }

  /** The low `n` bits of `value`, n ≤ 24. */
  write(n: number, value: number): void {
    this.acc |= (value & ((1 << n) - 1)) << this.used;
    this.used += n;
    while (this.used >= 8) {
      if (this.at === this.buf.length) this.grow();
      this.buf[this.at++] = this.acc & 0xff;
      this.acc >>>= 8;
      this.used -= 8;
    }
  }

  /** An independent writer that continues from here, for trying two ways of going on. */
  fork(): BitWriter {
    const copy = new BitWriter(this.buf.length);
    copy.buf.set(this.buf.subarray(0, this.at));
    copy.at = this.at;
    copy.acc = this.acc;
    copy.used = this.used;
    return copy;
  }

  /** Bits written so far. */
  get length(): number {
    return this.at * 8 + this.used;
  }

  /** Everything written, the last byte padded with zero bits. */
  finish(): Uint8Array {
    if (this.used > 0) this.write(8 - this.used, 0);
    return this.buf.subarray(0, this.at);
  }

  private grow(): void {
    const next = new Uint8Array(this.buf.length * 2);
    next.set(this.buf);
    this.buf = next;
  }
}
