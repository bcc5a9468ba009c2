import { describeHostScenarios } from './host-scenarios.ts';

describeHostScenarios('copilot');
