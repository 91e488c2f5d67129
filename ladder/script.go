package ladder

import "net/http"

// script is the pages' one script, served from this site (the pages'
// policy runs no inline script): it counts down to the deadline each
// second, and while a version of the page's is being checked it asks
// the API every few seconds and shows the page again once none is. A
// page without it reads the same, less alive.
const script = `"use strict";
(function () {
  function left(ms) {
    if (ms <= 0) return "now";
    var s = Math.floor(ms / 1000), d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600), m = Math.floor(s % 3600 / 60);
    s = s % 60;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return "in " + (d > 0 ? d + " d " : "") + two(h) + ":" + two(m) + ":" + two(s);
  }
  var clocks = document.querySelectorAll("[data-until]");
  function tick() {
    for (var i = 0; i < clocks.length; i++) {
      var ms = Number(clocks[i].getAttribute("data-until")) - Date.now();
      clocks[i].textContent = left(ms);
      if (ms <= 0 && !clocks[i].hasAttribute("data-done")) {
        clocks[i].setAttribute("data-done", "");
        setTimeout(function () { location.reload(); }, 5000);
      }
    }
  }
  if (clocks.length) { tick(); setInterval(tick, 1000); }
  var watch = document.body.getAttribute("data-watch");
  if (watch && document.querySelector(".checking")) {
    var poll = function () {
      fetch(watch, { credentials: "same-origin" }).then(function (r) { return r.json(); }).then(function (p) {
        var still = (p.versions || []).some(function (v) { return v.state === "checking"; });
        if (still) setTimeout(poll, 3000); else location.reload();
      }).catch(function () { setTimeout(poll, 10000); });
    };
    setTimeout(poll, 3000);
  }
})();
`

func serveScript(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Cache-Control", "max-age=300")
	w.Write([]byte(script))
}
