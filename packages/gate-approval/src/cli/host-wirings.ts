import type { HostName } from '../hosts/host-adapter.ts';
import type { HostWiring } from './host-wiring.ts';
import { claudeWiring } from './hosts/claude-wiring.ts';
import { codexWiring } from './hosts/codex-wiring.ts';
import { copilotWiring } from './hosts/copilot-wiring.ts';
import { geminiWiring } from './hosts/gemini-wiring.ts';

/** Each host's wiring, by the name `--host` takes. */
export const hostWirings: Readonly<Record<HostName, HostWiring>> = {
  claude: claudeWiring,
  codex: codexWiring,
  gemini: geminiWiring,
  copilot: copilotWiring,
};
