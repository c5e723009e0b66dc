/**
 * An answer of the read model: a value scrubbed of credentials once, as it entered, kept as its
 * JSON bytes (what REST sends) and any other rendition an edge makes of it (MCP's tool result),
 * each made once however often the answer is sent. Only bytes are kept: a kept page as objects
 * would weigh several times its JSON on the heap, uncounted by the cache's budget.
 */
import { scrubValue } from '../catalog/secrets.js';
import { JsonText } from '../json.js';

export class Answer<T> {
  private readonly renditions = new Map<string, Buffer>();

  private constructor(
    /** The JSON of the scrubbed value. */
    readonly json: Buffer,
  ) {}

  /** The answer to `value` once scrubbed (JSON text already made of scrubbed parts, as it is): the only way an answer is made. */
  static of<T>(value: T | JsonText<T>): Answer<T> {
    return new Answer<T>(Buffer.from(value instanceof JsonText ? value.text : JSON.stringify(scrubValue(value))));
  }

  /** The scrubbed value, read again from its JSON (a copy each time: for an edge that needs fields, not bytes). */
  get value(): T {
    return JSON.parse(this.json.toString());
  }

  /** The bytes an edge sends for this answer, made by `render` the first time an edge asks. */
  rendition(edge: string, render: (answer: Answer<T>) => Buffer): Buffer {
    let bytes = this.renditions.get(edge);
    if (bytes === undefined) this.renditions.set(edge, (bytes = render(this)));
    return bytes;
  }

  /** What the answer holds in bytes: its JSON and every rendition made so far. */
  get bytes(): number {
    let bytes = this.json.length;
    for (const rendition of this.renditions.values()) bytes += rendition.length;
    return bytes;
  }
}
