/* Live form feedback without a round trip. Plain JS, no framework,
   served from the site under the strict Content-Security-Policy (script-src 'self').
   Every form works without this file: it only adds buttons and running figures.

   No game rule lives here. The figures come from data attributes the server renders
   from the rule functions (the deck size of GB-16, the draft budget and each limit of
   DB-6/DB-7 from team_rules.check_draft, a line's "filled" state from the report
   form). This script only adds prices and counts ticks and numbers; the server
   checks everything again when the form is sent. */
(function () {
  "use strict";

  function emit(input) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function labelOf(input) {
    var label = input.id ? document.querySelector("label[for='" + input.id + "']") : null;
    return label ? label.textContent.trim().replace(/:$/, "") : "";
  }

  /* Steppers: a − and a + button around a number box marked data-stepper. The box
     stays a box: a coach can still type. */
  function stepper(input) {
    if (input.dataset.stepperReady) return;
    input.dataset.stepperReady = "1";
    var wrap = document.createElement("span");
    wrap.className = "stepper";
    input.parentNode.insertBefore(wrap, input);
    var name = labelOf(input);
    function button(text, delta, what) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "step";
      b.textContent = text;
      b.setAttribute("aria-label", what + (name ? ": " + name : ""));
      b.addEventListener("click", function () {
        var min = input.min === "" ? -Infinity : Number(input.min);
        var max = input.max === "" ? Infinity : Number(input.max);
        var value = (parseInt(input.value, 10) || 0) + delta;
        input.value = String(Math.min(max, Math.max(min, value)));
        emit(input);
      });
      return b;
    }
    wrap.appendChild(button("\u2212", -1, "One less"));
    wrap.appendChild(input);
    wrap.appendChild(button("+", 1, "One more"));
  }

  /* Dungeon Bowl player lines: the empty ones wait behind "Add a player line". */
  function clearLine(line) {
    line.querySelectorAll("input, select").forEach(function (field) {
      if (field.type === "checkbox") field.checked = false;
      else if (field.tagName === "SELECT") field.selectedIndex = 0;
      else field.value = "";
      emit(field);
    });
  }

  function playerLines(group) {
    var add = group.querySelector("[data-add-line]");
    var more = group.querySelector("[data-more-lines]");
    if (more) {
      // Every slot in one list; the <details> is for coaches without this script.
      while (more.querySelector("[data-player-line]")) group.insertBefore(more.querySelector("[data-player-line]"), more);
      more.remove();
    }
    var lines = Array.prototype.slice.call(group.querySelectorAll("[data-player-line]"));
    function refresh() {
      var hidden = lines.filter(function (line) { return line.hidden; });
      if (add) add.disabled = hidden.length === 0;
      // A player chosen on one line is not offered on another line of the same team.
      var taken = {};
      lines.forEach(function (line) {
        var select = line.querySelector("select");
        if (select && select.value && !line.hidden) taken[select.value] = select;
      });
      lines.forEach(function (line) {
        var select = line.querySelector("select");
        if (!select) return;
        Array.prototype.forEach.call(select.options, function (option) {
          option.disabled = Boolean(option.value && taken[option.value] && taken[option.value] !== select);
        });
      });
    }
    lines.forEach(function (line) {
      if (!line.hasAttribute("data-filled")) line.hidden = true;
      if (add) group.insertBefore(line, add);
      var remove = line.querySelector("[data-remove-line]");
      if (remove) {
        remove.hidden = false;
        remove.addEventListener("click", function () {
          clearLine(line);
          line.hidden = true;
          refresh();
          if (add) add.focus();
        });
      }
      var select = line.querySelector("select");
      if (select) select.addEventListener("change", refresh);
    });
    if (add) {
      add.hidden = false;
      add.addEventListener("click", function () {
        var next = lines.filter(function (line) { return line.hidden; })[0];
        if (!next) return;
        next.hidden = false;
        refresh();
        var select = next.querySelector("select");
        if (select) select.focus();
      });
    }
    refresh();
  }

  /* The deck form (GB-16): "12 of 12 chosen" as cards are ticked. */
  function choiceCounter(form) {
    var need = Number(form.dataset.need);
    var out = form.querySelector("[data-counter]");
    var boxes = form.querySelectorAll("input[type=checkbox]");
    var prefilled = form.dataset.prefilled ? form.dataset.prefilled.split(",") : [];
    function refresh() {
      var chosen = 0, kept = 0;
      boxes.forEach(function (box) {
        if (!box.checked) return;
        chosen += 1;
        if (prefilled.indexOf(box.value) >= 0) kept += 1;
      });
      var text = chosen + " of " + need + " chosen";
      if (chosen < need) text += ": tick " + (need - chosen) + " more";
      else if (chosen > need) text += ": untick " + (chosen - need);
      if (kept && prefilled.length) text += " (" + kept + " of them pre-filled from " + form.dataset.prefilledFrom + ")";
      out.textContent = text;
      out.classList.toggle("ok", chosen === need);
    }
    var clear = form.querySelector("[data-untick-all]");
    if (clear) {
      clear.hidden = false;
      clear.addEventListener("click", function () {
        boxes.forEach(function (box) { box.checked = false; });
        refresh();
      });
    }
    out.hidden = false;
    form.addEventListener("change", refresh);
    refresh();
  }

  /* The draft and re-draft forms (DB-6, DB-7): the running cost, the budget left and
     each limit. Prices, the budget and every limit's maximum come from the server. */
  function gp(amount) {
    return amount.toLocaleString("en-US") + " gp";
  }

  function draftTotals(form) {
    var budget = Number(form.dataset.budget);
    var fixed = Number(form.dataset.fixedCost || 0); // what the form does not change (players kept)
    var summary = document.getElementById(form.dataset.summary);
    if (!summary) return;
    var inputs = form.querySelectorAll("[data-cost]");
    function refresh() {
      var cost = fixed, used = {};
      inputs.forEach(function (input) {
        var n = input.type === "checkbox" ? (input.checked ? 1 : 0) : Math.max(0, parseInt(input.value, 10) || 0);
        cost += n * Number(input.dataset.cost);
        (input.dataset.counts || "").split("|").forEach(function (key) {
          if (key) used[key] = (used[key] || 0) + n;
        });
      });
      summary.querySelector("[data-cost-total]").textContent = "Cost " + gp(cost);
      var left = summary.querySelector("[data-budget-left]");
      left.textContent = budget - cost >= 0 ? gp(budget - cost) + " left" : "over budget by " + gp(cost - budget);
      left.classList.toggle("error", budget - cost < 0);
      summary.querySelectorAll("[data-limit]").forEach(function (item) {
        var n = (used[item.dataset.limit] || 0) + Number(item.dataset.fixed || 0);
        var max = Number(item.dataset.max);
        item.querySelector("[data-used]").textContent = String(n);
        var note = item.querySelector("[data-note]");
        note.textContent = n > max ? (n - max) + " too many" : n === max ? "limit reached" : "";
        note.classList.toggle("error", n > max);
      });
    }
    form.addEventListener("input", refresh);
    form.addEventListener("change", refresh);
    refresh();
  }

  function start() {
    document.querySelectorAll("input[type=number][data-stepper]").forEach(stepper);
    document.querySelectorAll("[data-player-lines]").forEach(playerLines);
    document.querySelectorAll("form[data-need]").forEach(choiceCounter);
    document.querySelectorAll("form[data-budget]").forEach(draftTotals);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
