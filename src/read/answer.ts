/**
 * The encoder: the one place a value leaving the service is scrubbed of credentials and written
 * as JSON. An answer is those bytes, kept as they are however often they are sent; JSON that
 * embeds answers (an MCP envelope around a tool result) is composed from their bytes.
 */
import { scrubValue } from '../catalog/secrets.js';
import { JsonText } from '../json.js';

export class Answer<T> {
  /** Never set: it ties the bytes to their type. */
  declare private readonly of?: T;

  private constructor(
    /** The JSON of the scrubbed value. */
    readonly json: Buffer,
  ) {}

  /** The answer to `value` once scrubbed; JSON text already made of scrubbed parts goes as it is. */
  static of<T>(value: T | JsonText<T>): Answer<T> {
    return new Answer<T>(Buffer.from(value instanceof JsonText ? value.text : JSON.stringify(scrubValue(value))));
  }

  /** The scrubbed value, read again from its JSON (a copy each time, for a page that needs fields). */
  get value(): T {
    return JSON.parse(this.json.toString());
  }

  /**
   * JSON composed from a template of JSON text, each part encoded: an answer goes in as its
   * bytes, JSON text as it is, any other value scrubbed and serialized.
   */
  static compose<T>(template: TemplateStringsArray, ...parts: unknown[]): Answer<T> {
    const pieces: Buffer[] = [];
    template.forEach((text, i) => {
      pieces.push(Buffer.from(text));
      if (i < parts.length) pieces.push(encode(parts[i]));
    });
    return new Answer<T>(Buffer.concat(pieces));
  }

  /** This answer's JSON as a JSON string (MCP's text block holds the result so). */
  asText(): Answer<string> {
    return new Answer<string>(Buffer.from(JSON.stringify(this.json.toString())));
  }
}

/** The bytes sent for a reply body: an answer's as they are, any other value scrubbed and serialized. */
export function encode(body: unknown): Buffer {
  if (body instanceof Answer) return body.json;
  if (body instanceof JsonText) return Buffer.from(body.text);
  return Answer.of(body).json;
}
