// ldp_truth.js: the browser client of ldp_truth. A worker's privacy rests on this file, so it is short,
// has no dependencies, loads nothing from the network, and says why at each step.
//
// It takes a mechanism spec (the JSON that `ldp-truth spec` writes before any answer is collected), checks
// that the spec is unchanged (its SHA-256 hash), and perturbs each answer on the worker's own device, so the
// server only ever sees perturbed answers: local differential privacy with the ε per answer that this file
// computes from the mechanism it runs (a spec whose stated ε differs is refused).
//
// Randomness comes only from crypto.getRandomValues (the operating system's cryptographic source). Every
// random decision is made from random integers compared with exact binary expansions (no floating-point
// transform of a random number), so a coin of probability p comes up with probability exactly p as stored
// in a double; the only gap to the exact mechanism is how p itself was computed (a few units in the last
// place, a relative error below 2^-50: the notebook 14_browser computes what that does to ε).

export const FORMAT = "ldp_truth.spec/2";
export const SUPPORTED = ["rr", "rr-null", "one-layer", "two-layer", "geometric"];

// Mechanisms of the library that this client refuses, and why (shown to the requester and the worker).
const REFUSED = {
  laplace: "floating-point Laplace noise leaks the true value through its low bits (Mironov 2012); " +
    "use the geometric mechanism on a declared integer grid instead",
  "gaussian-exp": "floating-point Gaussian noise leaks the true value through its low bits " +
    "(Mironov 2012); use the geometric mechanism on a declared integer grid instead",
  mf: "matrix-factorisation perturbation needs floating-point Laplace noise, which leaks through its " +
    "low bits (Mironov 2012)",
  none: "the spec releases answers without perturbation (no privacy): nothing to do on the worker's side",
};

export class SpecError extends Error {}
export class StateError extends SpecError {}

function badState(why) {
  throw new StateError("the answers kept in this browser for these settings are damaged or were changed " +
    `by another page (${why}); nothing can be sent safely: tell the requester`);
}

// ---------------------------------------------------------------------------------------------------------
// Worker ids: the rule of Python's ldp_truth.spec.worker_id_problem, written again here (14_browser checks
// that both give the same verdict). An id not in its normal form is refused, never normalised: "w1 " and
// "w1" would otherwise be one worker to the server and two to the cap.

export const WORKER_ID_MAX = 128;
// What Python's str.strip() removes (str.isspace), and the categories Cc, Cf, Zl, Zp.
const PY_SPACE = "[\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const AROUND = new RegExp(`^${PY_SPACE}|${PY_SPACE}$`);
const CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

// Why `worker` is not an id in normal form (NFC, stripped, no controls, 1–128 code points), or null; the
// id is shown as Python's ascii escapes would show it (an invisible character made visible).
export function workerIdProblem(worker) {
  if (typeof worker !== "string") {
    return `a worker id must be a string, not ${worker === null ? "null" : typeof worker}`;
  }
  const n = Array.from(worker).length;  // code points, as Python's len
  if (n < 1 || n > WORKER_ID_MAX) {
    return `a worker id has 1 to ${WORKER_ID_MAX} characters; this one has ${n}`;
  }
  if (AROUND.test(worker)) return `the worker id ${pyString(worker)} has white space around it`;
  if (worker.normalize("NFC") !== worker) {
    return `the worker id ${pyString(worker)} is not in Unicode normal form NFC`;
  }
  if (CONTROL.test(worker)) {
    return `the worker id ${pyString(worker)} holds a control or format character`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Canonical form and hash. The requester's hash covers every field but "hash"; recomputing it here is how
// the page notices an edited spec (a changed ε or mechanism) before anything is privatized with it. The
// canonical form is Python's json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True) of
// the spec with integral numbers written as integers, so both sides must write numbers and strings alike.

// A number as Python writes it: integral values as integers (1.0 → "1", -0.0 → "0"); others as the
// shortest digits that round-trip (JavaScript and Python agree on the digits), in Python's layout:
// plain from 1e-4 up, exponent form with a sign and two digits at least below it (1e-05, 1.5e-07).
function pyNumber(x) {
  if (!Number.isFinite(x)) throw new SpecError(`the spec holds a number that is not finite: ${x}`);
  if (Number.isInteger(x)) return BigInt(x).toString();
  const [mantissa, exponent] = x.toExponential().split("e");  // no argument: the shortest digits
  const e = parseInt(exponent, 10);
  const sign = mantissa.startsWith("-") ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  if (e < -4) {
    const frac = digits.length > 1 ? "." + digits.slice(1) : "";
    return `${sign}${digits[0]}${frac}e-${String(-e).padStart(2, "0")}`;
  }
  if (e < 0) return `${sign}0.${"0".repeat(-e - 1)}${digits}`;
  return `${sign}${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;  // non-integral: digits remain
}

const SHORT_ESCAPES = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b",
  "\f": "\\f" };

// A string as Python's ensure_ascii writes it: printable ASCII as is, short escapes, everything else as
// \uXXXX of its UTF-16 code units (lowercase hex), which is what JavaScript strings hold.
function pyString(s) {
  let out = '"';
  for (const ch of s.split("")) {  // UTF-16 code units, as Python's escaping of surrogate pairs
    const c = ch.charCodeAt(0);
    if (ch in SHORT_ESCAPES) out += SHORT_ESCAPES[ch];
    else if (c < 0x20 || c > 0x7e) out += "\\u" + c.toString(16).padStart(4, "0");
    else out += ch;
  }
  return out + '"';
}

// Python sorts keys by code point; JavaScript's default sort compares UTF-16 units (different above U+FFFF).
function byCodePoint(a, b) {
  const x = Array.from(a, (c) => c.codePointAt(0)), y = Array.from(b, (c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

export function canonicalJSON(value) {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "number") return pyNumber(value);
  if (typeof value === "string") return pyString(value);
  if (Array.isArray(value)) return "[" + value.map(canonicalJSON).join(",") + "]";
  if (typeof value === "object") {
    const keys = Object.keys(value).sort(byCodePoint);
    return "{" + keys.map((k) => pyString(k) + ":" + canonicalJSON(value[k])).join(",") + "}";
  }
  throw new SpecError(`the spec holds a value JSON cannot: ${typeof value}`);
}

// "sha256:<64 hex>" of the canonical form of every field but "hash".
export async function specHash(spec) {
  const rest = Object.fromEntries(Object.entries(spec).filter(([k]) => k !== "hash"));
  const bytes = new TextEncoder().encode(canonicalJSON(rest));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return "sha256:" + Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// ---------------------------------------------------------------------------------------------------------
// Randomness. Random 32-bit words from crypto.getRandomValues, fetched in blocks (one call per 16 KiB).

export class CryptoRandom {
  constructor() {
    this.words = new Uint32Array(4096);
    this.next = this.words.length;
  }

  word() {
    if (this.next === this.words.length) {
      crypto.getRandomValues(this.words);
      this.next = 0;
    }
    return this.words[this.next++];
  }

  // True with probability exactly p (the double p): compares a uniform U = 0.w1 w2 w3 … (32 random bits
  // at a time) with p's binary expansion, digit block by digit block, until they differ. p · 2^32 and the
  // subtraction of its integer part are exact for a double in [0, 1), so no rounding enters; one block
  // decides with probability 1 − 2^-32.
  bernoulli(p) {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`a probability must lie in [0, 1], got ${p}`);
    if (p === 1) return true;
    let rest = p;
    while (rest > 0) {
      const scaled = rest * 4294967296;
      const block = Math.floor(scaled);
      rest = scaled - block;
      const w = this.word();
      if (w !== block) return w < block;
    }
    return false;  // U's bits so far equal all of p's: U ≥ p
  }

  // A uniform integer in 0..n−1 (n ≤ 2^32), exactly: words at or above the largest multiple of n are
  // redrawn, so every residue has the same number of preimages.
  below(n) {
    const limit = 4294967296 - (4294967296 % n);
    let w = this.word();
    while (w >= limit) w = this.word();
    return w % n;
  }

  // A uniform integer in 0..2^53−1 (the two-layer mechanism's first-layer draw).
  uint53() {
    return (this.word() >>> 11) * 4294967296 + this.word();
  }
}

// ---------------------------------------------------------------------------------------------------------
// The mechanisms. Each works on indices: categorical answers are class indices 0..K−1 (class i =
// domain.classes[i]; NULL, for rr-null, is index K); grid answers are steps 0..n above domain.low.

// Keep x with probability 1 − q, else report one of the other k − 1 symbols, uniformly: randomized
// response (k-ary), the one-layer mechanism, and the two-layer mechanism's second layer.
function flip(x, q, k, random) {
  if (!random.bernoulli(q)) return x;
  const y = random.below(k - 1);
  return y >= x ? y + 1 : y;
}

// Two-sided geometric (discrete Laplace) noise on the grid 0..n, clamped to it: Pr(z) ∝ alpha^|z|. A fair
// sign and a count of successes of Bernoulli(alpha); "minus zero" is redrawn so that 0 is not counted
// twice (Canonne, Kamath & Steinke 2020). Counting stops at the grid's edge (clamping is
// post-processing), so the loop is bounded by the grid.
function geometricStep(x, n, alpha, random) {
  for (;;) {
    const up = random.word() & 1;
    const room = Math.max(up ? n - x : x, 1);
    let m = 0;
    while (m < room && random.bernoulli(alpha)) m++;
    if (!up && m === 0) continue;
    return up ? Math.min(x + m, n) : Math.max(x - m, 0);
  }
}

function fail(message) {
  throw new SpecError(message);
}

function positive(x, name) {
  if (!(typeof x === "number" && Number.isFinite(x) && x > 0)) fail(`${name} must be a number > 0, got ${x}`);
  return x;
}

function normal(p, name) {
  if (!(p >= 2.2250738585072014e-308)) fail(`${name} gives a probability below 2^-1022 (no exact double)`);
  return p;
}

function probability(x, name, hi) {
  if (!(typeof x === "number" && x >= 0 && x <= hi)) fail(`${name} must be a number in [0, ${hi}], got ${x}`);
  return x;
}

// The channel of a spec: how many input and output symbols, and how to draw one output (`u`: the worker's
// first-layer draw, two-layer only). Probabilities are computed once, in the numerically safe direction
// (the flip probability from e^-ε, never 1 − keep: a keep probability near 1 would round to 1), and must
// be normal doubles: below 2^-1022 a double loses relative precision, and at 0 the guarantee is gone.
function channel(spec) {
  const p = spec.params || fail("the spec has no params");
  const d = spec.domain || fail("the spec has no domain");
  if (spec.mechanism === "geometric") {
    if (d.kind !== "grid") fail(`geometric needs a domain of kind "grid", got ${JSON.stringify(d.kind)}`);
    for (const key of ["low", "high", "step"]) {
      if (!Number.isSafeInteger(d[key])) fail(`domain.${key} must be an integer, got ${d[key]}`);
    }
    const n = (d.high - d.low) / d.step;
    if (!(d.step > 0 && Number.isInteger(n) && n >= 1)) {
      fail("domain must run from low to high > low in whole steps of step > 0");
    }
    const alpha = normal(Math.exp(-positive(p.epsilon, "params.epsilon") / n), "params.epsilon");
    return { inputs: n + 1, outputs: n + 1, alpha, draw: (x, random) => geometricStep(x, n, alpha, random) };
  }
  if (d.kind !== "categorical" || !Array.isArray(d.classes) || d.classes.length < 2) {
    fail(`${spec.mechanism} needs a categorical domain with 2 classes or more`);
  }
  const K = d.classes.length, withNull = spec.mechanism === "rr-null";
  if (withNull !== (spec.null !== null)) fail("only rr-null names a NULL label, and it must");
  const k = K + (withNull ? 1 : 0);
  if (spec.mechanism === "rr" || withNull) {
    const t = normal((k - 1) * Math.exp(-positive(p.epsilon, "params.epsilon")), "params.epsilon");
    const q = t / (1 + t);
    return { inputs: k, outputs: k, flip: q, draw: (x, random) => flip(x, q, k, random) };
  }
  if (spec.mechanism === "one-layer") {
    const q = normal(probability(p.p_flip, "params.p_flip", (K - 1) / K), "params.p_flip");
    return { inputs: K, outputs: K, flip: q, draw: (x, random) => flip(x, q, K, random) };
  }
  // two-layer: each worker draws p_u ~ U(a, b) once (here on a grid of 2^53 points) and keeps it
  const a = probability(p.a, "params.a", 1), b = probability(p.b, "params.b", 1);
  if (!(a <= b)) fail(`params.a must be <= params.b, got a=${a}, b=${b}`);
  return {
    inputs: K, outputs: K, firstLayer: true,
    draw: (x, random, u) => flip(x, a + (b - a) * (u / 9007199254740992), K, random),
  };
}

// ---------------------------------------------------------------------------------------------------------
// What a spec guarantees, computed here from its mechanism, params, domain and max_answers alone (the mirror
// of Python's ldp_truth.spec.guarantee): the spec's stated epsilon_per_answer and epsilon_worker are only
// ever compared with these numbers, never shown or trusted on their own. The hash is an unkeyed SHA-256
// that anyone can recompute, so a spec saying ε = 1 while its params run ε = 10 must be caught here.

// ln of ∫_a^b (1−p)^m dp / ∫_a^b p(1−p)^(m−1) dp for a < b, as Python's _log_g (stable for large m).
function logG(a, b, m) {
  const A = 1 - a, B = 1 - b;
  const [rho, rho1] = B === 0 ? [0, 0] : [Math.exp(m * Math.log(B / A)), Math.exp((m + 1) * Math.log(B / A))];
  const top = A * (1 - rho1) / (m + 1);
  return Math.log(top) - Math.log((1 - rho) / m - top);
}

// Exact per-answer ε of the two-layer mechanism, p_u ~ U(a, b) drawn once per worker, for a worker with
// m answers (m = null: any number, the supremum over m).
function twoLayerEpsilon(a, b, s, m) {
  if (!(a + b > 0 && (a + b) / 2 <= (s - 1) / s)) {
    fail(`the two-layer mean flip probability (a+b)/2 must lie in (0, ${(s - 1) / s}], got ${(a + b) / 2}`);
  }
  if (m === null) {
    const fwd = a === 0 ? Infinity : Math.log((1 - a) * (s - 1) / a);
    const rev = b === 1 ? Infinity : (b === 0 ? -Infinity : Math.log(b / ((1 - b) * (s - 1))));
    return Math.max(fwd, rev);
  }
  if (a === b) return Math.abs(Math.log((1 - a) * (s - 1) / a));
  return Math.max(Math.log(s - 1) + logG(a, b, m), logG(1 - b, 1 - a, m) - Math.log(s - 1));
}

// { epsilon_per_answer, epsilon_worker } of the channel `ch` that this client built from `spec`: the flip
// channels from the flip probability they run, ε = ln((1 − q)(k − 1)/q); the geometric one from α, ε =
// n ln(1/α); two-layer from a and b; per worker m · ε for m = max_answers (null without a cap).
export function guarantee(spec, ch) {
  const p = spec.params, M = spec.max_answers;
  let e;
  if (spec.mechanism === "geometric") e = -(ch.inputs - 1) * Math.log(ch.alpha);
  else if (spec.mechanism === "two-layer") e = twoLayerEpsilon(p.a, p.b, ch.inputs, M);
  else e = Math.log((1 - ch.flip) * (ch.outputs - 1) / ch.flip);
  if (!(Number.isFinite(e) && e > 0)) fail(`the spec's mechanism and params give no finite ε > 0 (${e})`);
  return { epsilon_per_answer: e, epsilon_worker: M === null ? null : M * e };
}

// Refuse a spec whose stated numbers differ from the computed ones beyond rounding (10^-9 relative).
function checkStated(spec, computed) {
  for (const [key, value] of Object.entries(computed)) {
    const stated = spec[key];
    const same = value === null ? stated === null
      : typeof stated === "number" && Math.abs(stated - value) <= 1e-9 * Math.max(Math.abs(value), 1e-3);
    if (!same) {
      fail(`the spec states ${key}=${stated} but its mechanism and params give ${key}=${value}: a stated ` +
        "number is never trusted; ask the requester for a new spec");
    }
  }
}

// Check a spec (format, hash, mechanism, domain) and return its client: refuses with a SpecError that says
// why, before any answer is touched.
export async function openSpec(spec) {
  if (spec === null || typeof spec !== "object") fail("the spec must be a JSON object");
  if (spec.format !== FORMAT) {
    fail(`the spec's format must be "${FORMAT}", got ${JSON.stringify(spec.format)}`);
  }
  if (Object.hasOwn(REFUSED, spec.mechanism)) {
    fail(`this client refuses "${spec.mechanism}": ${REFUSED[spec.mechanism]}`);
  }
  if (!SUPPORTED.includes(spec.mechanism)) {
    fail(`unknown mechanism ${JSON.stringify(spec.mechanism)}; this client runs ${SUPPORTED.join(", ")}`);
  }
  const hash = await specHash(spec);
  if (spec.hash !== hash) fail("the spec was edited after it was made: its hash does not match its content");
  if (spec.max_answers !== null && !(Number.isSafeInteger(spec.max_answers) && spec.max_answers >= 1)) {
    fail(`max_answers must be null or an integer >= 1, got ${spec.max_answers}`);
  }
  const ch = channel(spec), computed = guarantee(spec, ch);
  checkStated(spec, computed);
  return new Client(spec, ch, computed);
}

// ---------------------------------------------------------------------------------------------------------
// The client: labels in, perturbed labels out, for one worker at a time.

export class Client {
  constructor(spec, ch, computed) {
    this.spec = spec;
    this.channel = ch;
    this.epsilon = computed.epsilon_per_answer;  // computed from what runs: the number a worker is shown
    this.epsilonWorker = computed.epsilon_worker;
    this.random = new CryptoRandom();
    const d = spec.domain;
    this.labels = d.kind === "grid"
      ? Array.from({ length: ch.inputs }, (_, i) => d.low + i * d.step)
      : [...d.classes, ...(spec.null === null ? [] : [spec.null])];
  }

  // The index of a label (a class name, a grid value, or null for NULL under rr-null); refuses the rest.
  index(label) {
    const i = label === null && this.spec.null !== null
      ? this.labels.length - 1
      : this.labels.findIndex((l) => l === label || String(l) === String(label));
    if (i < 0 || (label !== null && i === this.labels.length - 1 && this.spec.null !== null)) {
      fail(`${JSON.stringify(label)} is not an answer this spec allows (${this.labels.join(", ")})`);
    }
    return i;
  }

  // The worker's state under this spec is kept in the browser's storage under one key: `drawn`, each answered
  // task's perturbed label (the one draw for that task, sent again unchanged on a retry or a resubmission:
  // re-sending a perturbed value costs no ε, RAPPOR's "permanent randomized response"; a fresh draw would let
  // the draws be averaged), `acked`, the tasks whose labels a server acknowledged (or a saved file holds), and
  // `u`, the two-layer first-layer draw (the guarantee is computed for one draw per worker). No raw choice is
  // ever stored. Another page of the same origin can read and write this key (14_browser states what that
  // costs), so what is read is checked before it is used, and a state that fails is refused, never repaired.
  stateKey(worker) {
    return `ldp_truth/${this.spec.hash}/${worker}`;
  }

  // The stored state, validated: { drawn: Map task → label, acked: [task], u: string | null }.
  readState(storage, worker) {
    let text;
    try {
      text = storage.getItem(this.stateKey(worker));
    } catch (e) {
      fail(`this browser's storage is unavailable (${e.message}); the page needs it to keep your answers`);
    }
    if (text === null) return { drawn: new Map(), acked: [], u: null };
    let s;
    try {
      s = JSON.parse(text);
    } catch (e) {
      badState("it is not JSON");
    }
    return this.checkState(s);
  }

  // Types, labels among the spec's, a count within max_answers, acknowledged tasks among the drawn ones, and
  // u a decimal integer in [0, 2^53) (two-layer only); anything else is refused with a StateError.
  checkState(s) {
    if (s === null || typeof s !== "object" || Array.isArray(s)) badState("it is not an object");
    const fields = Object.keys(s).sort().join(",");
    if (fields !== "acked,drawn,u") badState(`its fields are ${fields || "none"}, not acked, drawn, u`);
    if (s.drawn === null || typeof s.drawn !== "object" || Array.isArray(s.drawn)) {
      badState("drawn is not an object");
    }
    const drawn = new Map(Object.entries(s.drawn)), allowed = new Set(this.labels.map(String));
    for (const label of drawn.values()) {
      if (typeof label !== "string" || !allowed.has(label)) {
        badState(`${JSON.stringify(label)} is not a label of these settings`);
      }
    }
    const cap = this.spec.max_answers;
    if (cap !== null && drawn.size > cap) badState(`it holds ${drawn.size} answers, beyond ${cap}`);
    const acked = s.acked;
    if (!Array.isArray(acked) || new Set(acked).size !== acked.length ||
        acked.some((t) => typeof t !== "string" || !drawn.has(t))) {
      badState("acked is not a list of distinct answered tasks");
    }
    const u = s.u;
    if (!this.channel.firstLayer ? u !== null
      : !(typeof u === "string" && /^(0|[1-9][0-9]{0,15})$/.test(u) && Number(u) < 9007199254740992)) {
      badState("u is not what these settings keep");
    }
    return { drawn, acked: [...acked], u };
  }

  // Store the state, and check that the storage kept it (a storage that keeps nothing would re-draw).
  writeState(storage, worker, s) {
    const text = JSON.stringify({ drawn: Object.fromEntries(s.drawn), acked: s.acked, u: s.u });
    try {
      storage.setItem(this.stateKey(worker), text);
      if (storage.getItem(this.stateKey(worker)) !== text) throw new Error("storage keeps nothing");
    } catch (e) {
      fail(`this browser's storage is unavailable (${e.message}); the page needs it to keep your answers`);
    }
  }

  // The perturbed labels to send for `tasks` (distinct ids) given `answers` (labels; null = no answer, NULL
  // under rr-null). A task drawn before gets its kept label (a new answer to it is ignored: the page locks
  // it); a new answer is drawn once, and the draws are stored before anything is returned. Refuses, with
  // nothing stored, beyond max_answers distinct tasks drawn (a draw counts once it exists: a server may
  // store it and still answer 500). Tasks without an answer or a draw give null.
  release(worker, tasks, answers, storage) {
    const problem = workerIdProblem(worker);
    if (problem !== null) fail(problem);
    if (!Array.isArray(tasks) || tasks.length !== answers.length || new Set(tasks).size !== tasks.length ||
        tasks.some((t) => typeof t !== "string")) {
      fail("tasks must be distinct strings, one per answer");
    }
    const inputs = answers.map((a) => (a === null && this.spec.null === null ? null : this.index(a)));
    const s = this.readState(storage, worker);
    const fresh = tasks.filter((t, i) => inputs[i] !== null && !s.drawn.has(t)).length;
    const cap = this.spec.max_answers;
    if (cap !== null && s.drawn.size + fresh > cap) {
      fail(`this spec allows ${cap} answers per worker; ${s.drawn.size} were already given, so these ` +
        `${fresh} would break its ε guarantee`);
    }
    if (this.channel.firstLayer && s.u === null) s.u = String(this.random.uint53());
    const u = s.u === null ? 0 : Number(s.u);
    tasks.forEach((t, i) => {
      if (inputs[i] !== null && !s.drawn.has(t)) {
        s.drawn.set(t, String(this.labels[this.channel.draw(inputs[i], this.random, u)]));
      }
    });
    this.writeState(storage, worker, s);
    return tasks.map((t) => (s.drawn.has(t) ? s.drawn.get(t) : null));
  }

  // Record that a server acknowledged `tasks` (or a saved file holds them): only now does the count move.
  acknowledge(worker, tasks, storage) {
    const s = this.readState(storage, worker);
    for (const t of tasks) if (s.drawn.has(t) && !s.acked.includes(t)) s.acked.push(t);
    this.writeState(storage, worker, s);
  }

  // What this worker has spent under this spec, computed from what runs: ε per answer times the distinct
  // tasks released (acknowledged), and the ε that the drawn but unacknowledged ones may add.
  spent(worker, storage) {
    const s = this.readState(storage, worker), pending = s.drawn.size - s.acked.length;
    return { released: s.acked.length, pending, epsilon: this.epsilon * s.acked.length,
      epsilonPending: this.epsilon * pending, tasks: [...s.drawn.keys()] };
  }

  // Two-layer keeps a secret in storage (u, the first-layer draw): any page of the same origin can read it
  // (every file:// page; a platform's shared content origin), and with it the answers have the one-layer ε
  // at p_u instead of the two-layer ε. So it runs only on the origin the requester declared as their own.
  checkOrigin(declared, actual) {
    if (!this.channel.firstLayer) return;
    if (typeof declared !== "string" || actual === "null" || actual !== declared) {
      fail("the two-layer mechanism keeps a secret draw in this browser's storage, which every page of " +
        `the same origin can read; it runs only on the requester's own origin (declared: ${declared}, ` +
        `this page: ${actual})`);
    }
  }

  // For audits where the code runs: n draws from every input symbol, each as a fresh worker (two-layer: a
  // fresh first-layer draw each time, the channel of one answer); counts[x][y], no single draw returned.
  counts(n) {
    const { inputs, outputs, draw, firstLayer } = this.channel;
    const counts = Array.from({ length: inputs }, () => new Array(outputs).fill(0));
    for (let x = 0; x < inputs; x++) {
      for (let i = 0; i < n; i++) counts[x][draw(x, this.random, firstLayer ? this.random.uint53() : 0)]++;
    }
    return counts;
  }
}
