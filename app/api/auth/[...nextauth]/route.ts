import NextAuth from "next-auth";
import type { NextRequest } from "next/server";

import { answerPasswordCallback } from "@/lib/auth/credentials-callback";
import { authOptions } from "@/lib/auth/options";

type Context = { params: Promise<{ nextauth: string[] }> };

const handler = (request: NextRequest, context: Context) => NextAuth(authOptions())(request, context);

/** A password sign-in answers 429 with Retry-After when refused, and sets the device cookie when good. */
const post = (request: NextRequest, context: Context) =>
  answerPasswordCallback(request, () => handler(request, context));

export { handler as GET, post as POST };
