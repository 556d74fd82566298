import { openApiDocument } from "@/lib/api-docs/api-docs";

export const dynamic = "force-dynamic";

/** The API's OpenAPI 3.1 document. No sign-in: it holds no data, only the routes' shapes. */
export function GET() {
  return Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });
}
