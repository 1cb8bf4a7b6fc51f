// An OTLP/HTTP JSON receiver for otlp_exporter_test.cpp and
// ts_client_trace_test.cpp: takes POST /v1/traces on 127.0.0.1 (a free
// port, printed as "listening <port>"),
// checks the body against the shape the official OpenTelemetry JavaScript
// serializer (@opentelemetry/otlp-transformer's JsonTraceSerializer) gives a
// span with every field we send, and prints each span it decodes as
// "span <server|client|...> <JSON>". A body that does not pass is answered
// 400 and printed as "invalid <why>".

import http from 'node:http';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { trace, context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';

// The reference: what the official SDK sends for a child span with a
// tracestate, attributes of every type and an error status.
function reference() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const parent = trace.setSpanContext(context.active(), {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1, isRemote: true,
    traceState: new TraceState('rojo=1'),
  });
  const span = provider.getTracer('reference').startSpan(
      'reference', { kind: SpanKind.SERVER, attributes: { s: 'text', i: 7, d: 1.5, b: true } }, parent);
  span.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
  span.end();
  return JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans())));
}

const referenceRequest = reference();
const kinds = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];
const hex = (digits) => new RegExp(`^[0-9a-f]{${digits}}$`);

// Every key of `ours` must be one the reference has at that place, with a
// value of the same JSON type (a 64-bit integer may be a decimal string, as
// proto3's JSON mapping allows).
function check(ours, ref, path) {
  if (Array.isArray(ref)) {
    if (!Array.isArray(ours)) throw new Error(`${path} is not an array`);
    if (ref.length === 0) return;
    ours.forEach((item, i) => check(item, ref.find((r) => sameKind(item, r)) ?? ref[0], `${path}[${i}]`));
    return;
  }
  if (ref !== null && typeof ref === 'object') {
    if (ours === null || typeof ours !== 'object' || Array.isArray(ours)) throw new Error(`${path} is not an object`);
    for (const [key, value] of Object.entries(ours)) {
      if (!(key in ref)) throw new Error(`${path}.${key} is not a field of OTLP`);
      check(value, ref[key], `${path}.${key}`);
    }
    return;
  }
  if (typeof ref === 'number' && typeof ours === 'string' && /^-?\d+$/.test(ours)) return;
  if (typeof ours !== typeof ref) throw new Error(`${path} is a ${typeof ours}, OTLP has a ${typeof ref}`);
}

// Attributes: an element is checked against the reference attribute of the same value type.
function sameKind(item, ref) {
  const key = (v) => v && v.value && Object.keys(v.value)[0];
  return key(item) !== undefined && key(item) === key(ref);
}

function decode(body) {
  const request = JSON.parse(body);
  check(request, referenceRequest, 'request');
  const spans = [];
  for (const resourceSpans of request.resourceSpans) {
    const service = resourceSpans.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue;
    for (const scopeSpans of resourceSpans.scopeSpans) {
      for (const span of scopeSpans.spans) {
        for (const [field, digits] of [['traceId', 32], ['spanId', 16]])
          if (!hex(digits).test(span[field])) throw new Error(`${field} ${span[field]} is not ${digits} hex digits`);
        if (span.parentSpanId !== undefined && !hex(16).test(span.parentSpanId))
          throw new Error(`parentSpanId ${span.parentSpanId} is not 16 hex digits`);
        for (const field of ['name', 'kind', 'startTimeUnixNano', 'endTimeUnixNano'])
          if (span[field] === undefined) throw new Error(`a span has no ${field}`);
        if (BigInt(span.endTimeUnixNano) < BigInt(span.startTimeUnixNano)) throw new Error('a span ends before it starts');
        const attributes = {};
        for (const a of span.attributes ?? []) attributes[a.key] = Object.values(a.value)[0];
        spans.push({
          service, name: span.name, kind: kinds[span.kind], traceId: span.traceId, spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? '', traceState: span.traceState ?? '', attributes,
          status: span.status?.code ?? 0, statusMessage: span.status?.message ?? '',
        });
      }
    }
  }
  return spans;
}

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => { body += chunk; });
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/v1/traces' ||
        !(req.headers['content-type'] ?? '').startsWith('application/json')) {
      console.log(`invalid ${req.method} ${req.url} ${req.headers['content-type']}`);
      res.writeHead(404).end();
      return;
    }
    try {
      for (const span of decode(body)) console.log(`span ${span.kind} ${JSON.stringify(span)}`);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    } catch (e) {
      console.log(`invalid ${e.message}`);
      res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: e.message }));
    }
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
