/**
 * `@scenaro/agent/python`: the Python semantics the project reproduces byte for byte — `repr`
 * and `str`, float `repr`, `float()` and `int()` with their errors, `round()`,
 * `format(x, ',.2f')`, `bool()`, `json.dumps(ensure_ascii=True)` with or without `sort_keys`, `==`,
 * string ordering and whitespace, `textwrap.indent`, and the arithmetic tau2's `calculate`
 * tool evaluates. Tests check each against outputs of CPython 3.11.
 *
 * @module
 */
export { evaluatePythonArithmetic, PythonError } from './arithmetic.js';
export { pyFloatCall, pyIntFromString, pyTruthy } from './builtins.js';
export { DbHashDepthError, DEFAULT_MAX_DEPTH } from './depth-limit.js';
export { isPlainObject, setDictItem } from './dict.js';
export type { DbHashOptions } from './depth-limit.js';
export { pyEquals } from './equality.js';
export type { PyEqualsOptions } from './equality.js';
export { pyFormatFixed } from './format.js';
export type { PyFormatFixedOptions } from './format.js';
export { PyFloat, pyFloat, pyFloatStr, pyRound, pythonFloat, pythonFloatRepr } from './float.js';
export { pythonJsonDumps } from './json-dumps.js';
export type { PythonJsonDumpsOptions } from './json-dumps.js';
export { pythonRepr, pythonStr, pythonTypeName } from './repr.js';
export * from './strings.js';
