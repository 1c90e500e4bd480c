/**
 * `npm run demo`: plays scripted agent sessions through the real engine (with
 * an in-memory store and a simulated clock) and prints every decision with its
 * reason, as `boulder why` would tell it.
 */
import pc from "picocolors";
import { defaultConfig } from "../core/config.js";
import { Engine, type SessionRef } from "../engine/engine.js";
import { MemoryStore } from "../state/memory-store.js";
import { SCENARIOS, type Scenario } from "./scenarios.js";

interface Row {
	step: string;
	decision: string;
	reason: string;
	detail: string;
}

export async function playScenario(scenario: Scenario): Promise<Row[]> {
	let now = Date.UTC(2026, 10, 30, 9, 0, 0);
	const clock = { now: () => now };
	const store = new MemoryStore("/demo/worktree", { clock });
	const engine = new Engine({ store, config: defaultConfig(), clock, plans: { read: async () => null } });
	const session: SessionRef = { harness: "demo", sessionId: scenario.title };
	const rows: Row[] = [];
	let todos = scenario.turn(0, []).todos ?? [];
	await engine.turnStarted(session, "user");
	for (let index = 0; index < 20; index++) {
		const turn = scenario.turn(index, todos);
		if (turn.todos) {
			todos = turn.todos;
			await engine.todosChanged(session, todos);
		}
		now += 45_000;
		await engine.turnEnded(session, {
			outcome: "end",
			spend: { input: 3_000, output: 900, cacheWrite: 0 },
			activity: turn.activity ?? 0,
		});
		const decision = await engine.onIdle(session, { lastAssistantText: turn.says });
		rows.push({
			step: index === 0 ? `user: ${scenario.userPrompt}` : `agent: ${turn.says}`,
			decision: decision.kind,
			reason: decision.reason,
			detail: decision.detail,
		});
		if (decision.kind !== "inject" || !decision.key) break;
		now += 2_000;
		await engine.delivered(session, decision.key);
	}
	return rows;
}

export function renderRows(rows: Row[]): string {
	const colour = (kind: string) => (kind === "inject" ? pc.green : kind === "complete" ? pc.cyan : pc.yellow);
	const width = Math.min(60, Math.max(...rows.map((row) => row.step.length)));
	return rows
		.map((row, index) => {
			const step = row.step.length > width ? `${row.step.slice(0, width - 1)}…` : row.step.padEnd(width);
			const verdict = colour(row.decision)(`${row.decision.padEnd(8)} ${row.reason.padEnd(14)}`);
			return `  ${String(index + 1).padStart(2)}  ${step}  ${verdict} ${pc.dim(row.detail)}`;
		})
		.join("\n");
}

async function main(): Promise<void> {
	for (const scenario of SCENARIOS) {
		console.log(`\n${pc.bold(scenario.title)}`);
		console.log(pc.dim(`  expected: ${scenario.expect}`));
		console.log(renderRows(await playScenario(scenario)));
	}
	console.log(`\n${pc.dim("Each line is one idle of the agent: what boulder decided and why.")}`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop() ?? "")) {
	await main();
}
