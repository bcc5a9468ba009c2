import { describeHostScenarios } from './host-scenarios.ts';

describeHostScenarios('codex');
