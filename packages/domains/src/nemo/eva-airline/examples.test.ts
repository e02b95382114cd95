import { describeToolExamples } from '../../test-support/nemo-examples.js';
import { nemoDefaultSuites } from '../default-suites.js';
import { evaAirline } from './domain.js';

describeToolExamples('eva_airline', () => [evaAirline, ...nemoDefaultSuites]);
