import { defineRunSuite } from './suite.js';

defineRunSuite('webhook');
