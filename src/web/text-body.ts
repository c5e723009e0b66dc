/** What a page handler answers: a page's (or a static file's) bytes and media type, with its status. */
export interface TextBody {
  readonly type: string;
  readonly bytes: Buffer;
}

export interface PageReply {
  readonly status: number;
  readonly text: TextBody;
  readonly headers?: Readonly<Record<string, string>>;
}
