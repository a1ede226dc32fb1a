// A file at rest, as music-metadata's parsers read it (a strtok3 tokenizer with random access):
// every read is served from one window of the file, reused, so a parse reads each part of the file
// at most once and what a parser skips (a WAV's samples, an MP3 frame's data) is never read at all.
// strtok3's own file tokenizer reads the disk for every token, which an MP3's frames make slow.
import type fsp from "node:fs/promises";
import { AbstractTokenizer, EndOfStreamError, type IFileInfo, type IReadChunkOptions } from "strtok3";

/** One read of the disk: a few of an MP3's frames in each, and never more than this held. */
const WINDOW_BYTES = 1024 * 1024;

export class FileWindowTokenizer extends AbstractTokenizer {
  readonly fileInfo: IFileInfo & { size: number };
  private readonly window = Buffer.allocUnsafeSlow(WINDOW_BYTES);
  private windowStart = 0;
  private windowLength = 0;

  constructor(
    private readonly handle: fsp.FileHandle,
    fileInfo: IFileInfo & { size: number },
  ) {
    super();
    this.fileInfo = fileInfo;
  }

  supportsRandomAccess(): boolean {
    return true;
  }

  setPosition(position: number): void {
    this.validateLength(position, "position");
    this.position = position;
  }

  async readBuffer(target: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    const { position } = this.normalizeOptions(target, options);
    const read = await this.peekBuffer(target, options);
    this.position = position + read;
    return read;
  }

  async peekBuffer(target: Uint8Array, options?: IReadChunkOptions): Promise<number> {
    const { length, position, mayBeLess } = this.normalizeOptions(target, options);
    const available = Math.max(0, Math.min(length, this.fileInfo.size - position));
    if (available < length && !mayBeLess) throw new EndOfStreamError();
    let done = 0;
    while (done < available) {
      const at = position + done;
      if (at < this.windowStart || at >= this.windowStart + this.windowLength) await this.load(at);
      const from = at - this.windowStart;
      const count = Math.min(available - done, this.windowLength - from);
      target.set(this.window.subarray(from, from + count), done);
      done += count;
    }
    return done;
  }

  /** The window moves to start at position (a file that shrank underneath ends the stream). */
  private async load(position: number): Promise<void> {
    const { bytesRead } = await this.handle.read(this.window, 0, WINDOW_BYTES, position);
    if (bytesRead === 0) throw new EndOfStreamError();
    this.windowStart = position;
    this.windowLength = bytesRead;
  }
}
