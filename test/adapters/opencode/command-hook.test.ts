/**
 * `/boulder` inside OpenCode, through the hub's `command.execute.before`: the
 * answer is shown in the session without a model turn, and `stop`/`go` act
 * on the countdown and on deciding again. Time is manual (`ManualTime`).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CommandAnswered } from "../../../src/adapters/opencode/slash-command.js";
import {
	autoStart,
	type Call,
	closeHubs,
	decisionsOf,
	FAST,
	type FakeOpenCode,
	MODEL,
	newSession,
	records,
	setUp,
	stateOf,
} from "./helpers.js";

/** The session under test. */
let S = "";

const COUNTDOWN = FAST.countdownMs ?? 0;

/** Far beyond every countdown, confirm wait and backoff the tests configure. */
const LONG_AFTER = 60_000;

beforeEach(() => {
	S = newSession();
});

afterEach(closeHubs);

describe("/boulder", () => {
	async function run(oc: FakeOpenCode, args: string): Promise<unknown> {
		return (oc.instances[0] as NonNullable<(typeof oc.instances)[0]>)
			["command.execute.before"]({
				command: "boulder",
				sessionID: S,
				arguments: args,
			})
			.then(
				() => null,
				(error: unknown) => error,
			);
	}

	it("stop answers in the session without a model turn, holds, and cancels a running countdown", async () => {
		const { hub, ws, oc, api, time } = setUp({ config: { countdownMs: 300 } });
		await oc.prompt(S, "Do both.");
		await oc.todos(S, ["in_progress", "pending"]);
		await oc.step(S);
		await oc.idle(S);
		await hub.settled();
		expect(api.toasts).toHaveLength(1);
		expect(time.pending()).toEqual([300]);

		expect(await run(oc, "stop")).toBeInstanceOf(CommandAnswered);
		expect(api.appended).toEqual([
			{
				sessionId: S,
				parts: [
					{
						type: "text",
						text: expect.stringMatching(/stopped for this session/),
						ignored: true,
						metadata: { boulder: { kind: "answer" } },
					},
				],
				route: { agent: "build", model: MODEL },
			},
		]);
		expect(api.toasts.at(-1)?.message).toMatch(/stopped for this session/);
		await hub.settled();
		expect(time.pending()).toEqual([]);
		await time.advance(LONG_AFTER);
		expect(api.prompts).toHaveLength(0);

		await oc.turn(S, "Do B.");
		await hub.settled();
		expect(api.prompts).toHaveLength(0);
		expect((await records(ws.store)).at(-1)).toMatchObject({
			reason: "disabled",
			detail: expect.stringMatching(/\/boulder stop/),
		});
	});

	it("go turns it back on and decides again at once when the session is idle", async () => {
		const { hub, oc, api, time } = setUp();
		autoStart(api, oc);
		await run(oc, "stop");
		await oc.prompt(S, "Do both.");
		await oc.todos(S, ["in_progress", "pending"]);
		await oc.step(S);
		await oc.idle(S);
		await hub.settled();
		expect(api.prompts).toHaveLength(0);

		expect(await run(oc, "go")).toBeInstanceOf(CommandAnswered);
		await hub.settled();
		await time.advance(COUNTDOWN);
		expect(api.prompts).toHaveLength(1);
		expect(api.appended.at(-1)?.parts[0]?.text).toMatch(/on again for this session/);
	});

	it("answers why, status and help with text, and its answer never starts a turn", async () => {
		const { hub, ws, oc, api } = setUp({ config: { enabled: false } });
		await oc.turn(S, "Hello.");
		await hub.settled();
		await run(oc, "why");
		await run(oc, "status");
		await run(oc, "dance");
		expect(api.appended.map((call) => call.parts[0]?.text)).toEqual([
			expect.stringMatching(/did not continue/),
			expect.stringMatching(/This session: continuation on\./),
			expect.stringMatching(/no subcommand "dance"[\s\S]*\/boulder status \| stop \| go \| why/),
		]);
		const seq = (await stateOf(ws.store, S)).turn?.seq;
		await oc.appendFromPlugin(api.appended[0] as Call);
		await hub.settled();
		expect((await stateOf(ws.store, S)).turn?.seq).toBe(seq);
	});

	it("does not take its own answer for the session being busy: a pending retry still comes", async () => {
		const { ws, oc, api, time, settled } = setUp({ config: { countdownMs: 0, backoff: { baseMs: 300 } } });
		api.promptError = new Error("HTTP 500");
		await oc.prompt(S, "Do both.");
		await oc.todos(S, ["in_progress", "pending"]);
		await oc.step(S);
		await oc.idle(S);
		await settled();
		expect(await decisionsOf(ws.store)).toContain("skip:backoff");
		api.promptError = null;
		const retry = time.pending();
		expect(retry).toHaveLength(1);
		await run(oc, "why");
		await oc.appendFromPlugin(api.appended[0] as Call);
		await settled();
		expect(time.pending()).toEqual(retry);
		expect(api.prompts).toHaveLength(0);
		autoStart(api, oc);
		await time.advance(retry[0] ?? 0);
		expect(api.prompts).toHaveLength(1);
	});

	it("records it when it cannot read where to append its answer, and appends it anyway", async () => {
		const { ws, oc, api } = setUp();
		api.messagesError = new Error("HTTP 503");
		expect(await run(oc, "status")).toBeInstanceOf(CommandAnswered);
		expect(api.appended).toHaveLength(1);
		expect(api.appended[0]?.route).toEqual({ agent: null, model: null });
		expect((await records(ws.store)).at(-1)).toMatchObject({
			reason: "error",
			detail: expect.stringMatching(/reading where to append \/boulder's answer.*HTTP 503/),
		});
	});

	it("leaves other commands to OpenCode", async () => {
		const { oc, api } = setUp();
		const hooks = oc.instances[0] as NonNullable<(typeof oc.instances)[0]>;
		await expect(
			hooks["command.execute.before"]({ command: "init", sessionID: S, arguments: "" }),
		).resolves.toBeUndefined();
		expect(api.appended).toHaveLength(0);
	});

	it("is declared through the config hook, without replacing a command of that name the user declared", async () => {
		const { oc } = setUp();
		const hooks = oc.instances[0] as NonNullable<(typeof oc.instances)[0]>;
		const config: { command?: Record<string, unknown> } = {};
		await hooks.config(config);
		expect(config.command?.boulder).toMatchObject({ template: expect.stringContaining("$ARGUMENTS") });
		const mine = { command: { boulder: { template: "my own" } } };
		await hooks.config(mine);
		expect(mine.command.boulder).toEqual({ template: "my own" });
	});
});
