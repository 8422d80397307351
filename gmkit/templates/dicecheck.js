// gmkit's dice checker: recomputes, in the browser alone, what a published site prints of its
// dice, with the procedure of gmkit's README ("Verifiable dice"). It reads the JSON document the
// page carries (the one the turn pages were made from), uses only the browser's WebCrypto
// (SHA-256, HMAC-SHA256) and BigInt, requests nothing, and writes its findings into the page with
// textContent (never as markup). Its result for programs: #verify-result's data-draws (draws
// recomputed), data-seeds (seeds checked), data-mismatches, data-state ("done" or "failed").
"use strict";
(function () {
  const TWO64 = 1n << 64n;
  const enc = new TextEncoder();
  const subtle = (window.crypto && window.crypto.subtle) || null;
  const result = document.getElementById("verify-result");
  const out = document.getElementById("turns");

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function isHex64(s) { return typeof s === "string" && /^[0-9a-f]{64}$/i.test(s); }

  function hexBytes(hex) {
    const b = new Uint8Array(hex.length / 2);
    for (let i = 0; i < b.length; i++) b[i] = parseInt(hex.substr(2 * i, 2), 16);
    return b;
  }

  function bytesHex(buf) {
    return Array.from(new Uint8Array(buf), (x) => x.toString(16).padStart(2, "0")).join("");
  }

  async function sha256hex(text) {
    return bytesHex(await subtle.digest("SHA-256", enc.encode(text)));
  }

  function hmacKey(hex) {
    return subtle.importKey("raw", hexBytes(hex), { name: "HMAC", hash: "SHA-256" }, false,
                            ["sign"]);
  }

  // step 4: the first 8 bytes of HMAC-SHA256(seed, "gmkit/1|<turn>|<id>|<attempt>"), big-endian
  async function bits(key, turn, id, attempt) {
    const msg = enc.encode("gmkit/1|" + turn + "|" + id + "|" + attempt);
    const view = new DataView(await subtle.sign("HMAC", key, msg));
    return view.getBigUint64(0, false);
  }

  // an integer in [0, n) for one id (n a BigInt): rejection sampling, attempt 0 first
  async function below(key, turn, id, n) {
    const limit = TWO64 - (TWO64 % n);
    for (let attempt = 0; ; attempt++) {
      const x = await bits(key, turn, id, attempt);
      if (x < limit) return x % n;
    }
  }

  // step 7: U[0,1) is (x >> 11) / 2**53 of attempt 0; printed with six decimals, rounded as
  // Python rounds (to nearest, ties to even), computed exactly
  function sixDecimals(k) {
    const num = k * 1000000n, den = 1n << 53n;
    let q = num / den;
    const twice = 2n * (num % den);
    if (twice > den || (twice === den && q % 2n === 1n)) q += 1n;
    return String(q / 1000000n) + "." + String(q % 1000000n).padStart(6, "0");
  }

  function splitItems(inner) { return inner === "" ? [] : inner.split(", "); }

  // what one printed roll gives when recomputed: {got, note} or {unknown}
  async function recompute(key, turn, roll) {
    const id = roll.id.normalize("NFC");
    const expr = roll.expression;
    let m = /^(\d+)d(\d+)$/.exec(expr);
    if (m) {
      const count = parseInt(m[1], 10), sides = BigInt(m[2]);
      if (count === 1) {
        const face = (await below(key, turn, id, sides)) + 1n;
        if (!id.endsWith("#0")) {
          const with0 = (await below(key, turn, id + "#0", sides)) + 1n;
          return { got: String(face), suffix: String(with0) };
        }
        return { got: String(face) };
      }
      const faces = await Promise.all(
        Array.from({ length: count }, (_, i) => below(key, turn, id + "#" + i, sides)));
      const shown = faces.map((f) => f + 1n);
      const sum = shown.reduce((a, b) => a + b, 0n);
      return { got: shown.join(" + ") + " = " + sum };
    }
    if (expr === "U[0,1)") {
      return { got: sixDecimals((await bits(key, turn, id, 0)) >> 11n) };
    }
    m = /^U\[0,1\)=(\S+) over /.exec(expr);
    if (m) {
      // a ruleset's own pick over a pool: the uniform number it printed is checked here, the
      // pick it made with it follows the game's rules
      const k = (await bits(key, turn, id, 0)) >> 11n;
      const value = Number(k) / 2 ** 53;
      return { got: value === Number(m[1]) ? m[1] : String(value), field: "expression",
               note: "the uniform number printed in the expression" };
    }
    m = /^choice\(([\s\S]*)\)$/.exec(expr);
    if (m) {
      const parts = splitItems(m[1]);
      const weighted = parts.length > 0 && parts.every((p) => /:\d+$/.test(p));
      const options = weighted ? parts.map((p) => p.replace(/:\d+$/, "")) : parts;
      const weights = weighted ? parts.map((p) => BigInt(/:(\d+)$/.exec(p)[1]))
                               : parts.map(() => 1n);
      const total = weights.reduce((a, b) => a + b, 0n);
      if (total === 0n) return { unknown: "a choice with nothing to choose from" };
      let r = await below(key, turn, id, total);
      for (let i = 0; i < options.length; i++) {
        if (r < weights[i]) return { got: options[i] };
        r -= weights[i];
      }
    }
    m = /^shuffle\(([\s\S]*)\)$/.exec(expr);
    if (m) {
      const items = splitItems(m[1]);
      for (let i = items.length - 1; i > 0; i--) {
        const j = Number(await below(key, turn, id + "#" + i, BigInt(i + 1)));
        const t = items[i]; items[i] = items[j]; items[j] = t;
      }
      return { got: items.join(", ") };
    }
    return { unknown: "an expression this page does not know how to recompute" };
  }

  // step 1 of the beacon: the turn's dice seed from the revealed secret and the beacon
  async function derivedSeed(secret, beacon) {
    const key = await hmacKey(secret);
    const msg = "gmkit/beacon/1|" + beacon.source + "|" + beacon.round + "|" + beacon.value;
    return bytesHex(await subtle.sign("HMAC", key, enc.encode(msg)));
  }

  async function checkTurn(entry, previous) {
    const t = { entry, lines: [], rows: [], draws: 0, seeds: 0, mismatches: 0, pending: 0,
                entered: 0, unknown: 0, suffix: 0, withSuffix: 0 };
    const bad = (text) => { t.lines.push({ ok: false, text }); t.mismatches++; };
    const good = (text) => t.lines.push({ ok: true, text });
    const info = (text) => t.lines.push({ ok: null, text });
    // the manifests, turn to turn
    if (entry.record) {
      if (previous && previous.record && entry.previous !== previous.record) {
        bad("Turn record: the previous hash printed here (" + (entry.previous || "none") +
            ") is not turn " + previous.turn + "'s record (" + previous.record + ")");
      } else if (previous && previous.record) {
        good("Turn record " + entry.record + " follows turn " + previous.turn + "'s record.");
      } else {
        info("Turn record " + entry.record + " (previous: " + (entry.previous || "none") + ").");
      }
    }
    // the seed against its commitment
    let seed = null;
    if (!entry.seed) {
      info("Seed: not yet revealed; its rolls are checked once the GM reveals it.");
    } else if (!isHex64(entry.seed)) {
      bad("Seed: " + entry.seed + " is not 64 hex characters.");
    } else if (!entry.commitment) {
      info("Seed revealed, but no commitment was posted for this turn: nothing to check it " +
           "against.");
      seed = entry.seed;
    } else {
      t.seeds++;
      const hash = await sha256hex(entry.seed);
      if (hash === entry.commitment.toLowerCase()) {
        good("Seed matches its commitment " + entry.commitment + ".");
      } else {
        bad("Seed does NOT match its commitment: sha256 of the revealed seed is " + hash +
            ", the commitment posted is " + entry.commitment + ".");
      }
      seed = entry.seed;
    }
    let diceSeed = seed;
    if (seed && entry.beacon) {
      diceSeed = await derivedSeed(seed, entry.beacon);
      info("Beacon " + entry.beacon.source + " round " + entry.beacon.round + " mixed in: the " +
           "dice seed derived from the revealed seed and the beacon is " + diceSeed + ". (The " +
           "beacon's own signature is checked by 'gmkit verify', not on this page.)");
    }
    const key = diceSeed ? await hmacKey(diceSeed) : null;
    t.rows = await Promise.all(entry.rolls.map(async (roll) => {
      const row = { roll, status: "", got: "", note: "" };
      if (roll.source === "entered") {
        row.status = "entered"; row.note = "entered by the GM: rolled elsewhere"; t.entered++;
      } else if (!key) {
        row.status = "pending"; row.note = "seed not yet revealed"; t.pending++;
      } else {
        const r = await recompute(key, entry.turn, roll);
        if (r.unknown) {
          row.status = "unknown"; row.note = r.unknown; t.unknown++;
        } else {
          t.draws++;
          row.got = r.got;
          const printed = r.field === "expression" ? /^U\[0,1\)=(\S+)/.exec(roll.expression)[1]
                                                   : roll.result;
          if (r.note) row.note = "checked: " + r.note;
          if (r.got === printed) {
            row.status = "ok";
          } else {
            row.status = "mismatch"; t.mismatches++;
          }
          if (r.suffix !== undefined) {
            // reported, never patched: the value stands or falls with the id as printed
            t.suffix++;
            if (r.suffix === printed) t.withSuffix++;
            row.note = "this single die's id is printed without the #0 it is derived from " +
                       "(README, step 3); recomputed from the id as printed: " + r.got +
                       "; from the id with #0 it would be " + r.suffix + ".";
          }
        }
      }
      return row;
    }));
    return t;
  }

  function showTurn(t) {
    const e = t.entry;
    const sec = el("section", "turn" + (t.mismatches ? " bad" : ""));
    sec.id = "turn-" + e.turn;
    sec.dataset.turn = String(e.turn);
    sec.dataset.mismatches = String(t.mismatches);
    sec.appendChild(el("h2", null, "Turn " + e.turn + (e.revision ? " (revision " + e.revision +
                                                        ")" : "")));
    const summary = [t.draws + " draw(s) recomputed"];
    if (t.pending) summary.push(t.pending + " waiting for the seed");
    if (t.entered) summary.push(t.entered + " entered by the GM");
    if (t.unknown) summary.push(t.unknown + " not recomputable here");
    summary.push(t.mismatches ? t.mismatches + " MISMATCH(ES)" : "all matched");
    sec.appendChild(el("p", t.mismatches ? "check-bad" : "sum", summary.join(" · ")));
    const ul = el("ul", "lines");
    for (const line of t.lines) {
      ul.appendChild(el("li", line.ok === false ? "check-bad" : line.ok ? "check-ok" : "",
                        line.text));
    }
    sec.appendChild(ul);
    if (t.rows.length) {
      const det = el("details");
      det.open = t.mismatches > 0;
      det.appendChild(el("summary", null, "Rolls (" + t.rows.length + ")"));
      const table = el("table", "rolls");
      const head = el("tr");
      for (const h of ["Draw id", "Purpose", "Expression", "Printed", "Recomputed", "Check"]) {
        head.appendChild(el("th", null, h));
      }
      table.appendChild(head);
      for (const row of t.rows) {
        const tr = el("tr", row.status === "mismatch" ? "mismatch" : "");
        tr.dataset.drawId = row.roll.id;
        tr.dataset.status = row.status;
        tr.appendChild(el("td", "mono", row.roll.id));
        tr.appendChild(el("td", null, row.roll.purpose));
        tr.appendChild(el("td", "mono", row.roll.expression));
        tr.appendChild(el("td", null, row.roll.result));
        tr.appendChild(el("td", null, row.got));
        const label = { ok: "matches", mismatch: "MISMATCH", entered: "entered",
                        pending: "not yet revealed", unknown: "not checked" }[row.status];
        tr.appendChild(el("td", row.status === "mismatch" ? "check-bad" :
                          row.status === "ok" ? "check-ok" : "pending",
                          label + (row.note ? ": " + row.note : "")));
        table.appendChild(tr);
      }
      det.appendChild(table);
      sec.appendChild(det);
    }
    out.appendChild(sec);
  }

  async function main() {
    const t0 = performance.now();
    if (!subtle) {
      throw new Error("this browser offers no WebCrypto here (window.crypto.subtle): open the " +
                      "page from a file or over https in a current browser");
    }
    const doc = JSON.parse(document.getElementById("dice-data").textContent);
    const turns = doc.turns.slice().sort((a, b) => a.turn - b.turn);
    const byTurn = new Map(turns.map((e) => [e.turn, e]));
    const checked = await Promise.all(turns.map((e) => checkTurn(e, byTurn.get(e.turn - 1))));
    const total = { draws: 0, seeds: 0, mismatches: 0, pending: 0, entered: 0, unknown: 0,
                    suffix: 0, withSuffix: 0 };
    for (const t of checked) {
      for (const k of Object.keys(total)) total[k] += t[k];
      showTurn(t);
    }
    const ms = performance.now() - t0;
    result.dataset.draws = String(total.draws);
    result.dataset.seeds = String(total.seeds);
    result.dataset.mismatches = String(total.mismatches);
    result.dataset.pending = String(total.pending);
    result.dataset.entered = String(total.entered);
    result.dataset.unchecked = String(total.unknown);
    result.dataset.missingSuffix = String(total.suffix);
    result.dataset.missingSuffixWouldMatch = String(total.withSuffix);
    result.dataset.ms = String(Math.round(ms));
    let text = turns.length + " turn(s): " + total.seeds + " seed(s) checked against their " +
      "commitments, " + total.draws + " draw(s) recomputed, ";
    text += total.mismatches ? total.mismatches + " MISMATCH(ES): see the turns in red."
                             : "everything matched.";
    if (total.pending) text += " " + total.pending + " roll(s) wait for a seed not yet revealed.";
    if (total.suffix) {
      text += " " + total.suffix + " single dice are printed without the #0 their id is " +
        "derived from (" + total.withSuffix + " of them would match with it): the pages " +
        "print those ids wrongly; ask the GM to publish them again.";
    }
    result.textContent = text;
    result.className = total.mismatches ? "check-bad" : "check-ok";
    result.dataset.state = "done";
  }

  main().catch((err) => {
    result.textContent = "The check could not run: " + (err && err.message ? err.message : err);
    result.className = "check-bad";
    result.dataset.state = "failed";
  });
})();
