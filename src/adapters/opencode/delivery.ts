/**
 * Delivers the engine's `inject` decisions to OpenCode, exactly once each.
 *
 * 1. The idempotency key is claimed in the process-wide gate; a second claim
 *    (another instance, a paired idle event) stops there.
 * 2. A countdown: a toast says the nudge is coming; any sign of life in the
 *    session (the user writes, the session goes busy, a tool runs, an abort,
 *    a question, `/boulder stop`) cancels it. A cancelled nudge is reported
 *    as not delivered, so the engine backs off rather than retrying blindly.
 * 3. `promptAsync` with the agent and model of the last real user message and
 *    one text part marked as boulder's (`synthetic`, `metadata.boulder.key`).
 * 4. OpenCode answers 204 even for a prompt that never starts, so acceptance
 *    is not enough: the nudge counts as delivered only when its message
 *    appears (the `chat.message` hook sees the key; the hub then reports
 *    `delivered`). Otherwise, after `confirmMs`, it is reported as failed.
 *
 * Contract: nothing here throws to its caller; every failure goes to
 * `report.failed` or `report.error`.
 */
import type { Clock } from "../../core/clock.js";
import type { SessionRef } from "../../engine/engine.js";
import type { OpenCodeApi, PromptRoute, TextPart } from "./api.js";
import { MARK, messageOf } from "./event-read.js";
import { TEXT } from "./messages.js";
import type { Scheduler, Timer } from "./scheduler.js";
import { claimKey, releaseClaim } from "./shared.js";

export interface DeliveryReport {
	/** `cancelled`: something in the session stopped the countdown; otherwise OpenCode did not take or start the prompt. */
	failed(ref: SessionRef, key: string, reason: string, cancelled: boolean): Promise<void>;
	error(ref: SessionRef, where: string, error: unknown): Promise<void>;
}

export interface Nudge {
	ref: SessionRef;
	key: string;
	text: string;
	countdownMs: number;
	/** Open items, for the countdown's toast. */
	open: number;
	/** Where to send it; read when the countdown ends, so a change of agent meanwhile is honoured. */
	route(): Promise<PromptRoute>;
}

interface Countdown {
	nudge: Nudge;
	timer: Timer;
}

interface Awaiting {
	state: "waiting" | "confirmed" | "gave-up";
	resolve(): void;
}

export interface DeliveryOptions {
	api: OpenCodeApi;
	report: DeliveryReport;
	/** How long a sent nudge may take to appear in the session. */
	confirmMs: number;
	/** The time claims are stamped with (`shared.ts`). */
	clock: Clock;
	/** Runs the countdown and the wait for the nudge to appear. */
	scheduler: Scheduler;
}

export class Deliveries {
	private readonly countdowns = new Map<string, Countdown>();
	private readonly awaiting = new Map<string, Awaiting>();
	private closed = false;

	constructor(private readonly options: DeliveryOptions) {}

	/** Starts delivering; false when the key was already claimed in this process (someone else delivers it). */
	begin(nudge: Nudge): boolean {
		if (this.closed || !claimKey(nudge.key, this.now())) return false;
		const session = nudge.ref.sessionId;
		this.cancel(session, "a newer nudge replaced it");
		if (nudge.countdownMs <= 0) {
			void this.send(nudge);
			return true;
		}
		const timer = this.options.scheduler
			.setTimeout(() => {
				if (this.countdowns.get(session)?.nudge !== nudge) return;
				this.countdowns.delete(session);
				void this.send(nudge);
			}, nudge.countdownMs)
			.unref();
		this.countdowns.set(session, { nudge, timer });
		this.options.api
			.toast(TEXT.countdown(nudge.countdownMs, nudge.open), "info", nudge.countdownMs)
			.catch((error: unknown) => this.options.report.error(nudge.ref, "showing the countdown", error));
		return true;
	}

	/** Cancels the session's countdown, if any; the nudge is reported as not delivered. */
	cancel(sessionId: string, reason: string): boolean {
		const countdown = this.countdowns.get(sessionId);
		if (!countdown) return false;
		this.options.scheduler.clearTimeout(countdown.timer);
		this.countdowns.delete(sessionId);
		releaseClaim(countdown.nudge.key, this.now());
		void this.options.report.failed(
			countdown.nudge.ref,
			countdown.nudge.key,
			`cancelled before sending: ${reason}`,
			true,
		);
		return true;
	}

	counting(sessionId: string): boolean {
		return this.countdowns.has(sessionId);
	}

	/**
	 * The nudge with this key appeared in its session. True when it was being
	 * waited for (the caller reports it delivered); false when it was not (it
	 * came too late, or from elsewhere), and the caller records a plain
	 * continuation turn instead.
	 */
	confirm(key: string): boolean {
		const entry = this.awaiting.get(key);
		if (entry?.state !== "waiting") return false;
		entry.state = "confirmed";
		this.awaiting.delete(key);
		releaseClaim(key, this.now());
		entry.resolve();
		return true;
	}

	/** Stops everything: countdowns are cancelled (and reported), waits end. */
	close(reason: string): void {
		this.closed = true;
		for (const session of [...this.countdowns.keys()]) this.cancel(session, reason);
		for (const entry of this.awaiting.values()) entry.resolve();
	}

	private now(): number {
		return this.options.clock.now();
	}

	private async send(nudge: Nudge): Promise<void> {
		const { api, report, confirmMs, scheduler } = this.options;
		let settled!: () => void;
		const appeared = new Promise<void>((resolve) => {
			settled = resolve;
		});
		const entry: Awaiting = { state: "waiting", resolve: () => settled() };
		this.awaiting.set(nudge.key, entry);
		const giveUp = async (reason: string) => {
			if (entry.state !== "waiting") return;
			entry.state = "gave-up";
			this.awaiting.delete(nudge.key);
			releaseClaim(nudge.key, this.now());
			await report.failed(nudge.ref, nudge.key, reason, false);
		};
		try {
			const route = await nudge.route();
			await api.promptAsync(nudge.ref.sessionId, [nudgePart(nudge)], route);
		} catch (error) {
			await giveUp(`OpenCode did not accept the prompt: ${messageOf(error)}`);
			return;
		}
		let timer: Timer | undefined;
		const late = new Promise<void>((resolve) => {
			timer = scheduler.setTimeout(resolve, confirmMs).unref();
		});
		await Promise.race([appeared, late]);
		scheduler.clearTimeout(timer);
		if (this.closed && entry.state === "waiting") {
			await giveUp("the plugin was unloaded before the nudge appeared");
			return;
		}
		await giveUp(`OpenCode accepted the prompt, but it did not appear in the session within ${confirmMs} ms`);
	}
}

/** The one text part of a nudge: synthetic, and marked so it is never taken for the user's. */
export function nudgePart(nudge: Pick<Nudge, "key" | "text">): TextPart {
	return { type: "text", text: nudge.text, synthetic: true, metadata: { [MARK]: { kind: "nudge", key: nudge.key } } };
}

/** The part that carries a `/boulder` answer: shown to the user, never sent to the model. */
export function answerPart(text: string): TextPart {
	return { type: "text", text, ignored: true, metadata: { [MARK]: { kind: "answer" } } };
}
