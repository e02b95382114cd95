/**
 * OpenTelemetry tracing of a `scenaro` process: on only when the standard
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set, exporting spans
 * over OTLP/HTTP (the exporter reads the rest of the standard `OTEL_EXPORTER_OTLP_*` settings).
 * The service is `$OTEL_SERVICE_NAME`, else `scenaro`. Without the variable nothing is loaded.
 */

/** Ends tracing: exports what is left. */
export type StopTracing = () => Promise<void>;

/** Start tracing when `env` asks for it; returns how to stop it, or undefined when off. */
export async function startTracing(
  env: NodeJS.ProcessEnv = process.env,
): Promise<StopTracing | undefined> {
  if (!env['OTEL_EXPORTER_OTLP_ENDPOINT'] && !env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'])
    return undefined;
  const [
    { BatchSpanProcessor, NodeTracerProvider },
    { OTLPTraceExporter },
    { resourceFromAttributes },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      'service.name': env['OTEL_SERVICE_NAME'] || 'scenaro',
      'service.version': '0.1.0',
    }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  return () => provider.shutdown();
}
