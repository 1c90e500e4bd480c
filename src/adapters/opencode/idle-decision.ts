/**
 * What happens once a root session is idle: the engine decides, with the
 * config as it is now, and its answer is carried out with OpenCode's own
 * means. A nudge is delivered (`delivery.ts`); a completion or a limit is
 * shown as a toast; a backoff brings one re-decide when it ends
 * (`retries.ts`); a nudge that was not delivered goes back to the engine.
 *
 * No policy here: whether the user hears about a skip (`notice`) and when to
 * come back (`retryAt`) are the engine's answer.
 *
 * Contract: `decide` rejects only with what the engine throws (the hub runs
 * it as a queued job, which records it); everything else records its
 * failures and never throws.
 */
import type { Clock } from "../../core/clock.js";
import type { Config } from "../../core/config.js";
import type { Engine, IdleResult, SessionRef } from "../../engine/engine.js";
import type { WorkspaceSource } from "../shared/workspace.js";
import type { OpenCodeApi } from "./api.js";
import type { Backfill, ErrorRecorder } from "./backfill.js";
import { Deliveries } from "./delivery.js";
import { messageOf } from "./event-read.js";
import type { KeyedQueue } from "./keyed-queue.js";
import { TEXT } from "./messages.js";
import { Retries } from "./retries.js";
import type { Scheduler } from "./scheduler.js";
import type { SessionTable, SessionTrack } from "./sessions.js";

/** How long a completion or limit toast stays up. */
const TOAST_MS = 8_000;

export interface IdleDecisionOptions {
	api: OpenCodeApi;
	workspace: WorkspaceSource;
	clock: Clock;
	scheduler: Scheduler;
	/** How long a sent nudge may take to appear in the session. */
	confirmMs: number;
	sessions: SessionTable;
	/** The hub's per-session queue: a re-decide runs in order with the session's events. */
	queue: KeyedQueue;
	backfill: Backfill;
	recordError: ErrorRecorder;
}

export class IdleDecisions {
	private readonly deliveries: Deliveries;
	private readonly retries: Retries;
	private closed = false;

	constructor(private readonly options: IdleDecisionOptions) {
		this.deliveries = new Deliveries({
			api: options.api,
			confirmMs: options.confirmMs,
			clock: options.clock,
			scheduler: options.scheduler,
			report: {
				failed: (ref, key, reason, cancelled) => this.deliveryFailed(ref, key, reason, cancelled),
				error: options.recordError,
			},
		});
		this.retries = new Retries(options.clock, options.scheduler);
	}

	/** Asks the engine what to do now that the session is idle, and does it. */
	async decide(track: SessionTrack, lastText: string | null): Promise<void> {
		if (this.closed) return;
		const { workspace, api, recordError } = this.options;
		const ref = track.ref();
		let engine: Engine;
		try {
			engine = await workspace.deciding();
		} catch (error) {
			await recordError(ref, "reading boulder's config", error);
			api
				.toast(TEXT.configProblem(messageOf(error)), "error")
				.catch((failed: unknown) => recordError(ref, "showing a toast", failed));
			return;
		}
		const result = await engine.onIdle(ref, {
			lastAssistantText: lastText,
			backgroundTasks: track.runningChildren.size,
			background: [...track.runningChildren.values()],
			canAbortChildren: true,
			pendingInput: track.pendingInput(),
		});
		if (result.kind === "inject") for (const child of result.abort ?? []) this.abortChild(ref, track, child);
		this.act(track, ref, result, engine.config);
	}

	/** The watchdog's abort of a child past its limit (`watchdog.abort`): it no longer counts as running. */
	private abortChild(ref: SessionRef, track: SessionTrack, child: string): void {
		track.runningChildren.delete(child);
		this.options.api
			.abort(child)
			.catch((error: unknown) => this.options.recordError(ref, `aborting the child session ${child}`, error));
	}

	/** Stops the session's countdown, if one runs; the nudge goes back to the engine as not delivered. */
	cancelCountdown(session: string, reason: string): void {
		this.deliveries.cancel(session, reason);
	}

	clearRetry(session: string): void {
		this.retries.clear(session);
	}

	/** A countdown runs for the session: a decision is on its way, so none is asked for. */
	counting(session: string): boolean {
		return this.deliveries.counting(session);
	}

	/** The nudge with this key appeared; true when its delivery was waiting for it (see `Deliveries.confirm`). */
	confirm(key: string): boolean {
		return this.deliveries.confirm(key);
	}

	close(): void {
		this.closed = true;
		this.retries.close();
		this.deliveries.close("OpenCode unloaded the plugin");
	}

	private act(track: SessionTrack, ref: SessionRef, result: IdleResult, config: Config): void {
		switch (result.kind) {
			case "inject":
				this.deliveries.begin({
					ref,
					key: result.key,
					text: result.text,
					countdownMs: config.countdownMs,
					open: result.figures.open,
					route: () => this.options.backfill.route(track),
				});
				return;
			case "complete":
				if (result.text) this.notify(ref, TEXT.complete(result.text), "success");
				return;
			case "skip":
				if (result.notice) this.notify(ref, TEXT.limit(result.detail), "warning");
				if (result.retryAt !== null) this.retries.at(track.id, result.retryAt, () => this.retryDue(track));
				return;
			case "verify":
				return;
		}
	}

	/**
	 * A nudge that was not delivered goes back to the engine, which backs off.
	 * When OpenCode failed it (rather than something in the session cancelling
	 * it, which brings its own decision) and the session is still idle, it is
	 * decided again at once, so the backoff's own retry time, not a blind
	 * retry, says when to try again.
	 */
	private deliveryFailed(ref: SessionRef, key: string, reason: string, cancelled: boolean): Promise<void> {
		const { queue, sessions, workspace } = this.options;
		return queue.enqueue(ref.sessionId, async () => {
			await (await workspace.bookkeeping()).deliveryFailed(ref, key, reason);
			const track = sessions.get(ref.sessionId);
			if (!cancelled && track.status === "idle" && !this.counting(track.id) && !track.isChild) {
				await this.decide(track, track.lastAssistantText());
			}
		});
	}

	/** A backoff ended: decide again, unless the session moved on meanwhile. */
	private retryDue(track: SessionTrack): void {
		if (track.status !== "idle" || this.counting(track.id)) return;
		void this.options.queue.enqueue(track.id, () => this.decide(track, track.lastAssistantText()));
	}

	private notify(ref: SessionRef, text: string, variant: "success" | "warning"): void {
		this.options.api
			.toast(text, variant, TOAST_MS)
			.catch((error: unknown) => this.options.recordError(ref, "showing a toast", error));
	}
}
