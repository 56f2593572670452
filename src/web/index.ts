// What the web adapter shares with the other adapters: the site's page shell for pages they
// serve themselves (the MCP sign-in and consent pages) and the escaping `html` template.
// Other folders import these from here, never from the files behind them
// (docs/architecture.md, "Layers and what each folder may import").
export { html, type Html } from './html.ts';
export { type SendStandalonePage, type StandalonePage, standalonePages } from './standalone.ts';
