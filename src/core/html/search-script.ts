/**
 * The search script, served as a file (`/pretraga.js`, so the Content-Security-Policy needs no
 * inline script): it answers the search form as the person types, from the list API with the
 * form's parameters. Debounced (one request when typing pauses, the one before aborted), the
 * results built with `textContent` only (a value is never markup), the count said in a live
 * region a screen reader announces. Without it the form is a GET to the results page.
 */

/** The script's source: plain ES2017, no framework, no request to another origin. */
export const SEARCH_SCRIPT = `"use strict";
(function () {
  var form = document.getElementById("trazi");
  var list = document.getElementById("rezultati");
  var status = document.getElementById("stanje");
  if (!form || !list || !status || !window.fetch) return;
  var timer = 0;
  var controller = null;
  var asked = null;
  function el(tag, text, attrs) {
    var node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    for (var name in attrs || {}) node.setAttribute(name, attrs[name]);
    return node;
  }
  function query() {
    var params = new URLSearchParams();
    var fields = ["search", "razina", "institucija_grad", "ordering"];
    for (var i = 0; i < fields.length; i++) {
      var field = form.elements.namedItem(fields[i]);
      var value = field && field.value ? field.value.trim() : "";
      if (value !== "") params.set(fields[i], value);
    }
    return params;
  }
  function say(hr, en) {
    status.replaceChildren(document.createTextNode(hr + " "), el("span", "/ " + en, { lang: "en", class: "en" }));
  }
  function show(page) {
    var n = page.count;
    say("Pronađeno subjekata: " + n + (n > page.results.length ? " (prikazano prvih " + page.results.length + ")" : "") + ".",
      "Subjects found: " + n + (n > page.results.length ? " (the first " + page.results.length + " shown)" : "") + ".");
    var items = page.results.map(function (s) {
      var li = el("li");
      li.append(el("a", s.naziv_subjekta, { href: "/subjekti/" + encodeURIComponent(String(s.id)) + "/" }));
      li.append(el("br"));
      li.append(el("span", s.institucija_grad + " · OIB " + s.oib + " · " + s.institucija_email, { class: "meta" }));
      return li;
    });
    list.replaceChildren.apply(list, items);
  }
  function run() {
    var params = query();
    var key = params.toString();
    if (key === asked) return;
    asked = key;
    if (controller) controller.abort();
    if (key === "") {
      list.replaceChildren();
      status.textContent = "";
      return;
    }
    controller = new AbortController();
    params.set("limit", "20");
    say("Tražim…", "Searching…");
    fetch("/api/subjekti/?" + params.toString(), { signal: controller.signal, headers: { Accept: "application/json" } })
      .then(function (answer) {
        if (!answer.ok) throw new Error(String(answer.status));
        return answer.json();
      })
      .then(show)
      .catch(function (error) {
        if (error && error.name === "AbortError") return;
        say("Pretraga nije uspjela. Pokušajte gumbom Traži.", "The search failed. Try the Search button.");
      });
  }
  function later() {
    clearTimeout(timer);
    timer = setTimeout(run, 250);
  }
  form.addEventListener("input", later);
  form.addEventListener("change", later);
})();
`;
