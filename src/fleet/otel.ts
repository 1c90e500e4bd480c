/**
 * OpenTelemetry export (docs/fleet.md), off unless the standard variables
 * name an endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_LOGS_ENDPOINT`; `OTEL_SDK_DISABLED=true` or
 * `BOULDER_OTEL=off` turn it off). The shipper, never the hook, exports: one
 * OTLP log record per decision-log record (reason, outcome, open/done
 * counts, budgets, harness, session id, and Claude Code's prompt id when the
 * record carries one) and a few metrics (nudges, stops by reason, tokens
 * spent by continuation). The official `@opentelemetry/*` packages are
 * loaded only here, when it is on; the exporters read the rest of the
 * standard variables (headers, protocol, timeouts) themselves.
 */
import { createRequire } from "node:module";
import type { DecisionRecord } from "../core/decision-record.js";

export { otelEnabled } from "../engine/fleet-kick.js";

export interface OtelSink {
	emit(record: DecisionRecord): void;
	/** Sends what is buffered; a cursor moves only after it. */
	flush(): Promise<void>;
	/** Sends what is buffered and closes the exporters. */
	close(): Promise<void>;
}

/** The attributes of one record's log line: the record's own words, under `boulder.*`. */
export function otelAttributes(record: DecisionRecord, machine: string): Record<string, string | number> {
	const attributes: Record<string, string | number> = {
		"boulder.machine": machine,
		"boulder.worktree": record.worktree,
		"boulder.kind": record.kind,
		"boulder.reason": record.reason,
	};
	if (record.harness) attributes["boulder.harness"] = record.harness;
	if (record.session) attributes["session.id"] = record.session;
	if (record.work) attributes["boulder.work"] = record.work;
	for (const [name, value] of Object.entries(record.figures ?? {})) attributes[`boulder.${name}`] = value;
	const prompt = (record as { promptId?: unknown }).promptId;
	if (typeof prompt === "string") attributes["prompt.id"] = prompt;
	return attributes;
}

/**
 * The signal's URL as the OTLP specification derives it: its own variable
 * whole, else the common endpoint plus `/v1/<signal>`. Read from the
 * environment boulder was given (the exporters would read `process.env`).
 */
function signalUrl(env: Record<string, string | undefined>, upper: string, signal: string): string {
	const own = env[`OTEL_EXPORTER_OTLP_${upper}_ENDPOINT`];
	if (own) return own;
	const base = env.OTEL_EXPORTER_OTLP_ENDPOINT ?? "http://localhost:4318";
	return `${base.replace(/\/+$/, "")}/v1/${signal}`;
}

/** Contract: throws a clear error when the packages are not installed. */
export function createOtelSink(
	machine: string,
	version: string,
	env: Record<string, string | undefined> = process.env,
): OtelSink {
	const load = createRequire(import.meta.url);
	let modules: {
		logs: typeof import("@opentelemetry/sdk-logs");
		logsExporter: typeof import("@opentelemetry/exporter-logs-otlp-http");
		metrics: typeof import("@opentelemetry/sdk-metrics");
		metricsExporter: typeof import("@opentelemetry/exporter-metrics-otlp-http");
		resources: typeof import("@opentelemetry/resources");
	};
	try {
		modules = {
			logs: load("@opentelemetry/sdk-logs"),
			logsExporter: load("@opentelemetry/exporter-logs-otlp-http"),
			metrics: load("@opentelemetry/sdk-metrics"),
			metricsExporter: load("@opentelemetry/exporter-metrics-otlp-http"),
			resources: load("@opentelemetry/resources"),
		};
	} catch (error) {
		throw new Error(
			`OTEL_EXPORTER_OTLP_ENDPOINT is set, but the OpenTelemetry packages are not installed beside boulder: npm install @opentelemetry/sdk-logs @opentelemetry/exporter-logs-otlp-http @opentelemetry/sdk-metrics @opentelemetry/exporter-metrics-otlp-http @opentelemetry/resources (${(error as Error).message.split("\n")[0]})`,
		);
	}
	const resource = modules.resources.resourceFromAttributes({
		"service.name": "boulder",
		"service.version": version,
		"host.name": machine,
	});
	const logProvider = new modules.logs.LoggerProvider({
		resource,
		processors: [
			new modules.logs.BatchLogRecordProcessor({
				exporter: new modules.logsExporter.OTLPLogExporter({ url: signalUrl(env, "LOGS", "logs") }),
			}),
		],
	});
	const reader = new modules.metrics.PeriodicExportingMetricReader({
		exporter: new modules.metricsExporter.OTLPMetricExporter({ url: signalUrl(env, "METRICS", "metrics") }),
		exportIntervalMillis: 10_000,
	});
	const meterProvider = new modules.metrics.MeterProvider({ resource, readers: [reader] });
	const logger = logProvider.getLogger("boulder");
	const meter = meterProvider.getMeter("boulder");
	const nudges = meter.createCounter("boulder.nudges", { description: "continuation prompts boulder injected" });
	const stops = meter.createCounter("boulder.stops", {
		description: "idle decisions that let the agent stop, by reason",
	});
	const tokens = meter.createCounter("boulder.continuation.tokens", {
		description: "tokens spent by the turns boulder continued",
		unit: "{token}",
	});
	const tokensLeft = new Map<string, number>();
	return {
		emit(record) {
			const attributes = otelAttributes(record, machine);
			logger.emit({
				timestamp: record.at,
				severityText: "INFO",
				body: `${record.kind} ${record.reason}: ${record.detail}`,
				attributes,
			});
			const labels = {
				"boulder.reason": record.reason,
				...(record.harness ? { "boulder.harness": record.harness } : {}),
			};
			if (record.kind === "inject") nudges.add(1, labels);
			else if (record.kind === "skip" || record.kind === "complete") stops.add(1, labels);
			// Spend by continuation: how far the episode's token budget went down since this session's previous decision.
			const left = record.figures?.tokensLeft;
			if (record.session && typeof left === "number") {
				const before = tokensLeft.get(record.session);
				if (before !== undefined && before > left) tokens.add(before - left, labels);
				tokensLeft.set(record.session, left);
			}
		},
		async flush() {
			await logProvider.forceFlush();
		},
		async close() {
			await logProvider.forceFlush();
			await meterProvider.forceFlush();
			await Promise.all([logProvider.shutdown(), meterProvider.shutdown()]);
		},
	};
}
