// The house-rules panel: a shipped profile to start from, then its options as switches and
// choices (the server's list, `pdk variants options`), checked by the server with the same
// model as a profile file after every change. The page never builds a profile: it keeps the
// base and the choices that differ from it, and sends those. An impossible mix is shown
// with the field and the server's reason, and the panel says it cannot be played.

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

export class RulesPanel {
  // `root` is an empty element the panel fills; `api(path, body)` the page's own fetch
  // (it adds the language), `t(key)` its words.
  constructor(root, api, t) {
    this.root = root;
    this.api = api;
    this.t = t;
    this.base = "";
    this.rules = {}; // key -> choice, only where it differs from the base
    this.options = null;
    this.ok = true;
    this.checked = null; // the server's last answer
    this.pending = 0;
    this.onchange = () => {};
    this.lang = null; // the language the options were last loaded in (the page reloads them on a change)
  }

  value() {
    return { base: this.base, rules: { ...this.rules } };
  }

  async load(base, keep = {}) {
    const { ok, data } = await this.api(`rules/options?base=${encodeURIComponent(base || "")}`);
    if (!ok) return false;
    this.options = data;
    this.base = data.base;
    this.rules = {};
    for (const r of data.rules) {
      const v = keep[r.key];
      if (v !== undefined && v !== r.current && r.choices.some((c) => c.value === v)) this.rules[r.key] = v;
    }
    this.render();
    await this.check();
    return true;
  }

  chosen(rule) {
    return this.rules[rule.key] ?? rule.current;
  }

  choose(rule, value) {
    if (value === rule.current) delete this.rules[rule.key];
    else this.rules[rule.key] = value;
    this.render();
    this.check();
  }

  render() {
    const t = this.t;
    const data = this.options;
    this.root.innerHTML = "";
    this.root.classList.add("house");
    const top = el("label", "hr-base");
    top.append(el("span", "", t("hr_base")));
    const sel = el("select");
    sel.dataset.testid = "hr-base";
    for (const b of data.bases) {
      const o = el("option", "", `${b.title} · ${b.name}`);
      o.value = b.name;
      o.selected = b.name === this.base;
      sel.append(o);
    }
    sel.addEventListener("change", () => this.load(sel.value, this.rules));
    top.append(sel);
    this.root.append(top);
    const list = el("div", "hr-list");
    for (const rule of data.rules) {
      const row = el("div", "hr-row");
      row.dataset.rule = rule.key;
      row.dataset.testid = `hr-${rule.key}`;
      const name = el("span", "hr-name", rule.label);
      if (rule.key in this.rules) row.classList.add("changed");
      const now = this.chosen(rule);
      const values = rule.choices.map((c) => c.value);
      let control;
      if (values.length === 2 && values.includes("on") && values.includes("off")) {
        // A switch that says its state in words (开 / 关), never a bare mark.
        control = el("button", "hr-switch", t(now === "on" ? "on" : "off"));
        control.type = "button";
        control.setAttribute("role", "switch");
        control.setAttribute("aria-checked", String(now === "on"));
        control.setAttribute("aria-label", rule.label);
        control.addEventListener("click", () => this.choose(rule, now === "on" ? "off" : "on"));
      } else {
        control = el("div", "hr-choices");
        control.setAttribute("role", "radiogroup");
        control.setAttribute("aria-label", rule.label);
        for (const c of rule.choices) {
          const b = el("button", "hr-choice", c.label);
          b.type = "button";
          b.setAttribute("role", "radio");
          b.setAttribute("aria-checked", String(c.value === now));
          b.dataset.value = c.value;
          b.addEventListener("click", () => this.choose(rule, c.value));
          control.append(b);
        }
      }
      row.append(name, control);
      list.append(row);
    }
    this.root.append(list);
    this.status = el("div", "hr-status");
    this.status.dataset.testid = "hr-status";
    this.status.setAttribute("role", "status");
    this.root.append(this.status);
    this.words = el("details", "hr-words");
    this.words.append(el("summary", "", t("hr_in_words")));
    this.root.append(this.words);
    this.showChecked();
  }

  async check() {
    const mine = ++this.pending;
    const { data } = await this.api("rules/check", this.value());
    if (mine !== this.pending) return; // a later change is being checked
    this.checked = data;
    this.ok = Boolean(data.ok);
    this.showChecked();
    this.onchange(this);
  }

  showChecked() {
    const data = this.checked;
    if (!data || !this.status) return;
    const t = this.t;
    this.status.innerHTML = "";
    this.status.classList.toggle("bad", !data.ok);
    for (const row of this.root.querySelectorAll(".hr-row")) row.classList.remove("refused");
    if (!data.ok) {
      this.status.append(el("strong", "", t("hr_refused")));
      const ul = el("ul");
      for (const p of data.problems) {
        ul.append(el("li", "", p.text));
        const rule = this.options.rules.find((r) => r.fields.some((f) => p.field === f || p.field.startsWith(`${f}.`)));
        if (rule) this.root.querySelector(`.hr-row[data-rule="${rule.key}"]`)?.classList.add("refused");
      }
      this.status.append(ul);
      return;
    }
    if (!data.changes.length) {
      this.status.textContent = t("hr_as_base", { title: data.rules.title.replace(/[（(].*$/, "").trim() });
    } else {
      this.status.append(el("strong", "", t("hr_changed")));
      const ul = el("ul");
      for (const c of data.changes) ul.append(el("li", "", c));
      this.status.append(ul);
    }
    const open = this.words.open;
    this.words.innerHTML = "";
    this.words.open = open;
    this.words.append(el("summary", "", t("hr_in_words")));
    this.words.append(rulesInWords(data.rules));
  }

  // The chosen rules as a profile file the browser saves (`--variant NAME.yaml`).
  async download() {
    const res = await fetch("/api/rules/yaml", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(this.value()),
    });
    if (!res.ok) return;
    saveBlob(await res.blob(), filenameOf(res) || "house.yaml");
  }
}

// A profile's rules as sections of lines, as `pdk variants show` says them.
export function rulesInWords(words) {
  const box = el("div", "rules-words");
  for (const section of words.sections) {
    box.append(el("h3", "", section.title));
    const ul = el("ul");
    for (const line of section.rules) ul.append(el("li", "", line));
    box.append(ul);
  }
  return box;
}

export function filenameOf(res) {
  const m = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") || "");
  return m ? m[1] : null;
}

export function saveBlob(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
