// tools/k8s-validate.mjs MODULES FILE.json... - each Kubernetes object in the
// files (one object or an array of them a file: YAML read into JSON by the
// caller) validated against the schema of its apiVersion and kind from the
// Kubernetes OpenAPI spec, as the npm package kubernetes-models carries it
// (compiled by ajv: types, formats, enums, required fields). MODULES is the
// node_modules folder it was installed in (tools/deps.sh puts it under
// /var/cache/mempath/node). One line a object; exit 0 all valid, 1 one is
// not, 2 bad use (no such kind in the package, unreadable file).
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [modules, ...files] = process.argv.slice(2);
if (!modules || files.length === 0) {
	console.error("usage: k8s-validate.mjs MODULES FILE.json...");
	process.exit(2);
}
let bad = 0;
for (const file of files) {
	let docs;
	try {
		docs = JSON.parse(readFileSync(file, "utf8"));
	} catch (e) {
		console.error(`${file}: ${e.message}`);
		process.exit(2);
	}
	for (const doc of Array.isArray(docs) ? docs : [docs]) {
		const { apiVersion, kind } = doc ?? {};
		const name = doc?.metadata?.name ?? "(no name)";
		const mod = join(modules, "kubernetes-models", String(apiVersion), `${kind}.js`);
		if (!apiVersion || !kind || !existsSync(mod)) {
			console.error(`${file}: ${kind} ${name}: no schema for apiVersion ${apiVersion} kind ${kind}`);
			process.exit(2);
		}
		const Model = (await import(pathToFileURL(mod).href))[kind];
		try {
			new Model(doc).validate();
			console.log(`${file}: ${apiVersion} ${kind} ${name}: valid`);
		} catch (e) {
			console.log(`${file}: ${apiVersion} ${kind} ${name}: ${e.message}`);
			bad = 1;
		}
	}
}
process.exit(bad);
