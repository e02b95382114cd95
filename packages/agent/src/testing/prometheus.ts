/**
 * Reading a bot server's `GET /metrics`: fetch the Prometheus text, and read one sample of it.
 */

/** Fetch `url` (a `/metrics` URL), with `token` as a bearer token when given. */
export async function scrapeMetrics(
  url: string,
  token?: string,
): Promise<{ status: number; contentType: string; text: string }> {
  const res = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    text: await res.text(),
  };
}

/**
 * The value of sample `name` with exactly `labels` in the Prometheus text `text`, or undefined
 * when there is no such sample.
 */
export function metricValue(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const wanted = Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(',');
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)]
      .map(([, k, v]) => [k as string, v as string] as const)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(',');
    if (found === wanted) return Number(match[3]);
  }
  return undefined;
}
