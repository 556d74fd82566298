// The parser the metrics tests read GET /api/metrics with: the package ships no types.
declare module "parse-prometheus-text-format" {
  type Labels = Record<string, string>;
  export type ParsedSample =
    | { value: string; labels?: Labels }
    | { buckets: Record<string, string>; count: string; sum: string; labels?: Labels }
    | { quantiles: Record<string, string>; count: string; sum: string; labels?: Labels };
  export type ParsedFamily = {
    name: string;
    help: string;
    type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
    metrics: ParsedSample[];
  };
  /** Throws on a line that is not Prometheus text format. */
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
