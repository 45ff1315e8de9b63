// The rules screen: how to use the page, then the rules of the profile this server deals,
// in the words `pdk variants show` uses (the server sends them in the page's language).
import { $ } from "./page.js";

export async function openRules(lang, t) {
  const res = await fetch(`/api/rules?lang=${lang}`);
  if (!res.ok) return;
  const data = await res.json();
  $("#rules-title").textContent = t("rules_title", { title: data.title });
  const howto = $("#howto");
  howto.innerHTML = "";
  const h = document.createElement("h3");
  h.textContent = t("howto_title");
  const ul = document.createElement("ul");
  for (const key of ["howto_select", "howto_play", "howto_pass", "howto_counter", "howto_score"]) {
    const li = document.createElement("li");
    li.textContent = t(key);
    ul.append(li);
  }
  howto.append(h, ul);
  const body = $("#rules-body");
  body.innerHTML = "";
  for (const section of data.sections) {
    const title = document.createElement("h3");
    title.textContent = section.title;
    const list = document.createElement("ul");
    for (const rule of section.rules) {
      const li = document.createElement("li");
      li.textContent = rule;
      list.append(li);
    }
    body.append(title, list);
  }
  $("#rules").hidden = false;
  $("#rules .sheet").scrollTop = 0;
}
