/** Every profile of the benchmark, in report order. */
import type { Profile } from "../profile.js";
import {
	backgroundTasks,
	cappedLongList,
	cappedShortList,
	contextOverflow,
	duplicateIdles,
	flakyApi,
	restartMidWork,
} from "./harness.js";
import { slowBurner, steady100, steadyExpensive } from "./marathon.js";
import { blockedItem, churner, looper } from "./stuck.js";
import { delegatingOrchestrator, wedgedSubagent } from "./subagents.js";
import { interrupter, questionAsker, userStops } from "./user.js";
import { diligent, earlyClaimer, hardItems, lazyStopper, longPlan, silentWorker } from "./working.js";

export const PROFILES: readonly Profile[] = [
	diligent,
	lazyStopper,
	earlyClaimer,
	silentWorker,
	longPlan,
	hardItems,
	steady100,
	steadyExpensive,
	slowBurner,
	looper,
	churner,
	blockedItem,
	questionAsker,
	interrupter,
	userStops,
	flakyApi,
	backgroundTasks,
	delegatingOrchestrator,
	wedgedSubagent,
	contextOverflow,
	restartMidWork,
	duplicateIdles,
	cappedLongList,
	cappedShortList,
];

export function profileByName(name: string): Profile {
	const profile = PROFILES.find((candidate) => candidate.name === name);
	if (!profile) throw new Error(`no profile named ${name}`);
	return profile;
}
