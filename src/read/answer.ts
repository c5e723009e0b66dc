/**
 * An answer of the read model: a value scrubbed of credentials once, as it entered, kept as its
 * JSON bytes (what REST sends) and any other rendition an edge makes of it (MCP's tool result),
 * each made once however often the answer is sent. Only bytes are kept: a kept page as objects
 * would weigh several times its JSON on the heap, uncounted by the cache's budget.
 *
 * A large answer kept for later reads (a page of the registry API is 100-250 KB) is held
 * brotli-compressed, a quarter of its size or less (`forKeeping`): a client that accepts brotli
 * (VS Code, browsers over HTTPS) gets those bytes, another its JSON inflated for it (and gzipped
 * again if it accepts gzip); its renditions are made each time, not held beside it. An answer
 * the cache does not keep (a comparison; trust and status, held for a moment) stays as JSON.
 */
import { scrubValue } from '../catalog/secrets.js';
import { compress, compressedBody, bodyOf, type Body } from '../compression.js';
import { JsonText } from '../json.js';

/** Answers of this many bytes of JSON or more are held compressed. */
export const HELD_COMPRESSED = 32 * 1024;

export class Answer<T> {
  private readonly renditions = new Map<string, Buffer>();

  private constructor(
    /** The JSON of the scrubbed value, or its brotli form for a large one. */
    private readonly held: Buffer,
    /** As `body`: what is sent, in either encoding. */
    readonly body: Body,
    /** Whether it is held compressed (and holds no rendition). */
    readonly compressed: boolean,
  ) {}

  /** The answer to `value` once scrubbed (JSON text already made of scrubbed parts, as it is): the only way an answer is made. */
  static of<T>(value: T | JsonText<T>): Answer<T> {
    const json = Buffer.from(value instanceof JsonText ? value.text : JSON.stringify(scrubValue(value)));
    return new Answer<T>(json, bodyOf(json), false);
  }

  /** The answer as it is kept: itself, or for a large one the same answer held compressed. */
  forKeeping(): Answer<T> {
    if (this.compressed || this.held.length < HELD_COMPRESSED) return this;
    const held = compress(this.held);
    return new Answer<T>(held, compressedBody(held, this.held.length), true);
  }

  /** The JSON of the scrubbed value (inflated each time for an answer held compressed). */
  get json(): Buffer {
    return this.body.identity();
  }

  /** The scrubbed value, read again from its JSON (a copy each time: for an edge that needs fields, not bytes). */
  get value(): T {
    return JSON.parse(this.json.toString());
  }

  /** The bytes an edge sends for this answer, made by `render` the first time an edge asks (each time, for an answer held compressed). */
  rendition(edge: string, render: (answer: Answer<T>) => Buffer): Buffer {
    if (this.compressed) return render(this);
    let bytes = this.renditions.get(edge);
    if (bytes === undefined) this.renditions.set(edge, (bytes = render(this)));
    return bytes;
  }

  /** What the answer holds in bytes: its JSON (or its brotli form) and every rendition made so far. */
  get bytes(): number {
    let bytes = this.held.length;
    for (const rendition of this.renditions.values()) bytes += rendition.length;
    return bytes;
  }
}
