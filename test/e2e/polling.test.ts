import { defineRunSuite } from './suite.js';

defineRunSuite('polling');
