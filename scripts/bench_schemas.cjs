// Node half of scripts/bench-schemas.sh: the TypeScript MCP SDK client (what Claude Code and
// Claude Desktop use) against the server binary. Prints one JSON line: listTools median (ms) over
// N calls, the "unknown format" warnings Ajv printed, and the time to validate one write result
// (compact and full) with the SDK's own Ajv validator, median of 500.
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { AjvJsonSchemaValidator } = require('@modelcontextprotocol/sdk/validation/ajv');

const [bin, runs] = [process.argv[2], Number(process.argv[3] || 20)];
let unknownFormat = 0;
let warnings = 0;
for (const level of ['warn', 'log', 'error']) {
  const original = console[level].bind(console);
  console[level] = (...args) => {
    const text = args.map(String).join(' ');
    if (text.includes('unknown format')) unknownFormat += 1;
    if (level === 'warn') warnings += 1;
    if (level !== 'warn' && !text.includes('unknown format')) original(...args);
  };
}
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

(async () => {
  const client = new Client({ name: 'bench-schemas', version: '1' });
  // The SDK passes only a default subset of the environment: LS_HOME (a temporary data
  // directory) and a pinned sim seed (the same first fight every run) are passed on explicitly.
  const env = { ...process.env, LS_SIM__SEED: '1' };
  await client.connect(new StdioClientTransport({ command: bin, args: [], env, stderr: 'ignore' }));
  const times = [];
  let tools;
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    tools = (await client.listTools()).tools;
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const schema = tools.find((t) => t.name === 'ls_explore').outputSchema;
  const started = await client.callTool({ name: 'ls_new_game', arguments: { weapon: 'Wand' } });
  const id = started.structuredContent.adventurer_id;
  const hit = await client.callTool({ name: 'ls_attack', arguments: { adventurer_id: id, to_the_death: true } });
  const up = await client.callTool({
    name: 'ls_upgrade',
    arguments: { adventurer_id: id, vitality: hit.structuredContent.state.stat_points },
  });
  const compact = (await client.callTool({ name: 'ls_explore', arguments: { adventurer_id: id } })).structuredContent;
  const fullArgs = { adventurer_id: id, detail: 'full' };
  let full = await client.callTool({ name: 'ls_explore', arguments: fullArgs });
  // The first explore may have met a beast: an attack's result is a write result all the same.
  if (full.isError) full = await client.callTool({ name: 'ls_attack', arguments: fullArgs });
  full = full.structuredContent;
  const validator = new AjvJsonSchemaValidator().getValidator(schema);
  const timeValidation = (value) => {
    const xs = [];
    for (let i = 0; i < 500; i++) {
      const t = process.hrtime.bigint();
      const r = validator(value);
      xs.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (!r.valid) throw new Error(`invalid: ${r.errorMessage}`);
    }
    return median(xs);
  };
  const out = {
    client: 'typescript-sdk',
    list_tools_ms_median: median(times),
    list_tools_ms_first: times[0],
    unknown_format_warnings: unknownFormat,
    warnings,
    validate_write_ms_compact: timeValidation(compact),
    validate_write_ms_full: timeValidation(full),
    upgrade_ok: !up.isError,
  };
  process.stdout.write(JSON.stringify(out) + '\n');
  await client.close();
})().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + '\n');
  process.exit(1);
});
