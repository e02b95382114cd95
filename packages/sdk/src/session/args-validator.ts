/**
 * Validates tool `args` against the tool's JSON Schema with ajv. Compiled
 * validators are cached by schema object and by schema text, so re-sent configs
 * do not recompile. (Schemas are treated as immutable once handed over.)
 *
 * ajv is imported in the background (`import()`) as soon as this module is
 * evaluated: a browser app bundles it as a chunk of its own, off its entry file.
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from './types.js';

/** Outcome of validating `args`: on failure, the first offending field and a message naming it. */
export type ArgsValidation =
  { ok: true } | { ok: false; field: string; message: string; issues: readonly ArgsIssue[] };

/** One schema violation. */
export interface ArgsIssue {
  /** Dotted path inside `args` (`items.0.sku`); empty for `args` itself. */
  field: string;
  message: string;
}

/** Validates `args` objects against JSON Schemas. */
export interface ArgsValidator {
  /** The outcome, or a promise of it while the validator is still loading. */
  validate(
    schema: JsonSchema | undefined,
    args: Record<string, unknown>,
  ): ArgsValidation | Promise<ArgsValidation>;
}

/** ajv, loading since this module was evaluated; a failure is reported by `validate`. */
const ajvModule = import('ajv');
ajvModule.catch(() => undefined);

function pointerToPath(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function toIssue(error: ErrorObject): ArgsIssue {
  const path = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && typeof params['missingProperty'] === 'string') {
    path.push(params['missingProperty']);
    return { field: path.join('.'), message: 'is required' };
  }
  if (
    error.keyword === 'additionalProperties' &&
    typeof params['additionalProperty'] === 'string'
  ) {
    path.push(params['additionalProperty']);
    return { field: path.join('.'), message: 'is not allowed' };
  }
  return { field: path.join('.'), message: error.message ?? `fails ${error.keyword}` };
}

/**
 * An ajv-backed {@link ArgsValidator}. Unknown formats and keywords are ignored
 * (Cockpit schemas may carry annotations ajv does not know).
 */
export function createArgsValidator(options: { maxCachedSchemas?: number } = {}): ArgsValidator {
  let ajv: Ajv | undefined;
  const ready = ajvModule.then((module) => {
    ajv = new module.Ajv({ allErrors: true, strict: false, validateFormats: false });
  });
  ready.catch(() => undefined);
  const cache = new Map<string, ValidateFunction>();
  const byObject = new WeakMap<object, ValidateFunction | string>();
  const max = options.maxCachedSchemas ?? 256;

  function compile(schema: JsonSchema): ValidateFunction | string {
    if (typeof schema === 'object' && schema !== null) {
      const known = byObject.get(schema);
      if (known !== undefined) return known;
      const compiled = compileByText(schema);
      byObject.set(schema, compiled);
      return compiled;
    }
    return compileByText(schema);
  }

  function compileByText(schema: JsonSchema): ValidateFunction | string {
    const key = JSON.stringify(schema);
    const cached = cache.get(key);
    if (cached) return cached;
    try {
      const fn = (ajv as Ajv).compile(schema);
      if (cache.size >= max) {
        const oldest = cache.keys().next();
        if (!oldest.done) cache.delete(oldest.value);
      }
      cache.set(key, fn);
      return fn;
    } catch (err) {
      return `the tool's parameters schema is invalid: ${(err as Error).message}`;
    }
  }

  function validate(schema: JsonSchema | undefined, args: Record<string, unknown>): ArgsValidation {
    if (schema === undefined) return { ok: true };
    const fn = compile(schema);
    if (typeof fn === 'string') return { ok: false, field: '', message: fn, issues: [] };
    if (fn(args)) return { ok: true };
    const issues = (fn.errors ?? []).map(toIssue);
    const first = issues[0] ?? { field: '', message: 'is invalid' };
    const where = first.field ? `args.${first.field}` : 'args';
    return { ok: false, field: first.field, message: `${where} ${first.message}`, issues };
  }

  return {
    validate(schema, args) {
      if (ajv || schema === undefined) return validate(schema, args);
      return ready.then(
        () => validate(schema, args),
        (err: unknown) => ({
          ok: false,
          field: '',
          message: `cannot be checked: the validator did not load (${(err as Error).message})`,
          issues: [],
        }),
      );
    },
  };
}
