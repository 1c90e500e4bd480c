/**
 * OpenTelemetry export against a receiver on loopback that speaks OTLP/HTTP
 * (JSON): with `OTEL_EXPORTER_OTLP_ENDPOINT` set and no fleet, the shipper
 * exports one log record per decision-log record, with its reason, counts
 * and session, and the metrics; each record once, from its own cursor.
 * Without the variable nothing is loaded or sent.
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventRecord } from "../../src/core/decision-record.js";
import { settingsFrom } from "../../src/fleet/config.js";
import { runShipper } from "../../src/fleet/shipper.js";
import { makeMachine, removeMachines } from "./support/machine.js";

let server: Server;
let endpoint: string;
const received: { path: string; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
	server = createServer((request, response) => {
		let text = "";
		request.on("data", (chunk) => {
			text += chunk;
		});
		request.on("end", () => {
			received.push({ path: request.url ?? "", body: JSON.parse(text || "{}") });
			response.writeHead(200, { "content-type": "application/json" });
			response.end("{}");
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const address = server.address();
	endpoint = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
	await removeMachines();
});

interface LogRecord {
	body: { stringValue: string };
	attributes: { key: string; value: { stringValue?: string; intValue?: string; doubleValue?: number } }[];
}

function logRecords(): LogRecord[] {
	return received
		.filter((entry) => entry.path === "/v1/logs")
		.flatMap((entry) =>
			((entry.body.resourceLogs ?? []) as { scopeLogs: { logRecords: LogRecord[] }[] }[]).flatMap((resource) =>
				resource.scopeLogs.flatMap((scope) => scope.logRecords),
			),
		);
}

describe("OpenTelemetry export", () => {
	it("sends one log record per decision, with its reason, figures and session, once", async () => {
		const m = await makeMachine("otel-a", null, {
			OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
			OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
		});
		const root = await m.worktree("wt");
		const store = m.store(root);
		await store.appendDecision({
			v: 1,
			at: Date.now(),
			worktree: root,
			scope: "s",
			harness: "claude-code",
			session: "sess-otel",
			work: null,
			kind: "inject",
			reason: "continue",
			detail: "3 of 7 done",
			figures: { open: 4, done: 3, tokensLeft: 90_000 },
		});
		await store.appendDecision(
			eventRecord({ at: Date.now(), worktree: root, reason: "user-turn", detail: "you wrote" }),
		);
		const first = await runShipper({ env: m.env, settings: settingsFrom(m.env, null), lingerMs: 0 });
		expect(first.exported).toBeGreaterThanOrEqual(3);
		const records = logRecords();
		expect(records.length).toBe(first.exported);
		const nudge = records.find((record) => record.body.stringValue.startsWith("inject continue"));
		const attributes = Object.fromEntries(
			(nudge?.attributes ?? []).map((a) => [
				a.key,
				a.value.stringValue ?? Number(a.value.intValue ?? a.value.doubleValue),
			]),
		);
		expect(attributes).toMatchObject({
			"boulder.reason": "continue",
			"boulder.open": 4,
			"boulder.done": 3,
			"session.id": "sess-otel",
			"boulder.harness": "claude-code",
			"boulder.machine": "otel-a",
		});
		expect(received.some((entry) => entry.path === "/v1/metrics")).toBe(true);
		const again = await runShipper({ env: m.env, settings: settingsFrom(m.env, null), lingerMs: 0 });
		expect(again.exported).toBe(0);
		expect(logRecords().length).toBe(first.exported);
	});

	it("is off without the standard variable: nothing is sent", async () => {
		const before = received.length;
		const m = await makeMachine("otel-off", null);
		const root = await m.worktree("wt");
		await m.log(root, 3);
		const result = await runShipper({ env: m.env, settings: settingsFrom(m.env, null), lingerMs: 0 });
		expect(result.exported).toBe(0);
		expect(received.length).toBe(before);
	});
});
