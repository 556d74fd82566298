/** Types of ports.mjs (plain JavaScript so that `npm start` runs it with node alone). */
export declare const FETCH_BLOCKED_PORTS: ReadonlySet<number>;
export declare function portProblem(variable: string, value: string | number | undefined): string | undefined;
export declare function readPort(
  variable: string,
  fallback: number,
  environment?: Readonly<Record<string, string | undefined>>,
): number;
