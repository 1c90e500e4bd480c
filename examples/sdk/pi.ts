// boulder in a program built on pi's SDK: the same extension `boulder install
// pi` installs, given to the session as an inline extension factory. The
// agent works through its list (or the plan `boulder start PLAN.md` made
// active) until it is really done, and stops when it should.
//
//   PI_MODEL=provider/model node pi.ts "Work through the list."
//
// Ctrl-C aborts the run at once; boulder remembers it. `boulder why` in the
// project explains every decision.
import {
	createAgentSession,
	DefaultResourceLoader,
	getAgentDir,
	ModelRuntime,
	SessionManager,
} from "@earendil-works/pi-coding-agent";
import { boulderExtension } from "boulder-agent/sdk/pi";

const [prompt = "Work through the list."] = process.argv.slice(2);
const cwd = process.cwd();
const [provider = "anthropic", modelId = "claude-sonnet-4-5"] = (process.env.PI_MODEL ?? "").split("/");

const resourceLoader = new DefaultResourceLoader({
	cwd,
	agentDir: getAgentDir(),
	extensionFactories: [boulderExtension],
});
await resourceLoader.reload();
const modelRuntime = await ModelRuntime.create();
const model = modelRuntime.getModel(provider, modelId);
if (!model) throw new Error(`pi knows no model ${provider}/${modelId}`);

const { session } = await createAgentSession({
	cwd,
	model,
	modelRuntime,
	resourceLoader,
	sessionManager: SessionManager.create(cwd),
});
process.once("SIGINT", () => void session.abort());
await session.bindExtensions({});

try {
	// Resolves when the run settles: boulder's nudges continue it from inside.
	await session.prompt(prompt);
	const last = session.messages.at(-1);
	console.log(JSON.stringify({ session: session.sessionId, settled: true, last: last?.role ?? null }));
} finally {
	session.dispose();
}
