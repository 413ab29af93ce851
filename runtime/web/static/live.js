// Live updates: follow the server-sent events named by #live's data-events and, on each,
// fetch the part named by data-part (HTML the server rendered and escaped) and swap it in.
// No data from a run is evaluated here; the page's Content-Security-Policy allows only this file.
"use strict";
(function () {
  var live = document.getElementById("live");
  if (!live || !live.dataset.events || !window.EventSource) { return; }
  var busy = false, again = false, source = new EventSource(live.dataset.events);

  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(live.dataset.part, { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html !== null) { live.innerHTML = html; } })
      .finally(function () { busy = false; if (again) { again = false; refresh(); } });
  }

  source.addEventListener("open", refresh);
  source.addEventListener("append", refresh);
  source.addEventListener("end", function () { source.close(); refresh(); });
})();
