// boulder in a program built on OpenCode's SDK: the server `createOpencode`
// starts loads boulder's plugin, which keeps the session working through its
// list (or the plan `boulder start PLAN.md` made active) until it is really
// done, and stops it when it should.
//
//   node opencode.ts "Work through the list."
//
// Ctrl-C aborts the session at once; boulder remembers it. `boulder why` in
// the project explains every decision.
import { createOpencode } from "@opencode-ai/sdk";
import { untilSettled, withBoulder } from "boulder-agent/sdk/opencode";

const [prompt = "Work through the list."] = process.argv.slice(2);
const controller = new AbortController();
process.once("SIGINT", () => controller.abort());

const { client, server } = await createOpencode({ port: 0, timeout: 60_000, config: withBoulder() });
try {
	const created = await client.session.create({ body: { title: "boulder example" } });
	if (!created.data) throw new Error("OpenCode made no session");
	const id = created.data.id;
	controller.signal.addEventListener("abort", () => void client.session.abort({ path: { id } }));
	await client.session.prompt({ path: { id }, body: { parts: [{ type: "text", text: prompt }] } });
	// The plugin nudges the session from inside the server: wait until boulder has let it stop.
	const settled = await untilSettled(id);
	console.log(JSON.stringify({ session: id, settled }));
} finally {
	server.close();
}
