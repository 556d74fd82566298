import type { IncomingMessage, ServerResponse } from "node:http";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";
const MAX_BODY_BYTES = 1024 * 1024;

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Thrown by handlers; turned into `{ error, errorDescription }` with the given status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${status} ${code}: ${description}`);
  }
}

export function errorReply(error: ApiError): Reply {
  return {
    status: error.status,
    body: { error: error.code, errorDescription: error.description },
    headers: error.headers,
  };
}

export function sendReply(res: ServerResponse, reply: Reply): void {
  const payload = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    ...reply.headers,
    "Content-Type": JSON_CONTENT_TYPE,
    "Content-Length": String(Buffer.byteLength(payload)),
  });
  res.end(payload);
}

/** Reads a JSON body; an empty body is `undefined`, malformed JSON is a 400 `invalid_request`. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, "invalid_request", "Request body is too large.");
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, "invalid_request", "Request body is not valid JSON.");
  }
}
