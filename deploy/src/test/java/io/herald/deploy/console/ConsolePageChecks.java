package io.herald.deploy.console;

import java.util.List;
import org.openqa.selenium.chrome.ChromeDriver;

/** What the console's browser tests measure in the page: charts, boxes, labels. */
final class ConsolePageChecks {

    private ConsolePageChecks() {
    }

    static int pointsDrawn(ChromeDriver browser, String chart) {
        Object points = browser.executeScript("return document.getElementById(arguments[0]).dataset.points || '0'", chart);
        return Integer.parseInt(String.valueOf(points));
    }

    static boolean chartsFitTheirBoxes(ChromeDriver browser) {
        return Boolean.TRUE.equals(browser.executeScript("""
                return Array.prototype.every.call(document.querySelectorAll('.chart'), function (box) {
                  var plot = box.querySelector('.uplot');
                  return plot && Math.abs(plot.getBoundingClientRect().width - box.clientWidth) <= 2;
                });"""));
    }

    /** How many pixels of the chart's canvas have (about) that colour: the drawn series. */
    static long pixelsOf(ChromeDriver browser, String chart, int r, int g, int b) {
        Object n = browser.executeScript("""
                var canvas = document.querySelector('#' + arguments[0] + ' canvas');
                var data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
                var n = 0;
                for (var i = 0; i < data.length; i += 4) {
                  if (data[i + 3] > 200 && Math.abs(data[i] - arguments[1]) < 24 && Math.abs(data[i + 1] - arguments[2]) < 24
                      && Math.abs(data[i + 2] - arguments[3]) < 24) { n++; }
                }
                return n;""", chart, r, g, b);
        return ((Number) n).longValue();
    }

    /**
     * Every visible element inside a card lies within the card's box (an element inside a
     * horizontally scrolling region counts by that region), and the page never scrolls sideways.
     */
    @SuppressWarnings("unchecked")
    static List<String> overflowing(ChromeDriver browser) {
        return (List<String>) browser.executeScript("""
                var out = [];
                if (document.documentElement.scrollWidth > window.innerWidth) {
                  out.push('the page is ' + document.documentElement.scrollWidth + ' px wide in ' + window.innerWidth);
                }
                var cards = document.querySelectorAll('.topbar, .card, .lists > section, .case, .banner, .tile');
                cards.forEach(function (card) {
                  var box = card.getBoundingClientRect();
                  if (!box.width) { return; }
                  card.querySelectorAll('*').forEach(function (e) {
                    var scroller = e.parentElement && e.parentElement.closest('.scroll');
                    if (scroller && card.contains(scroller)) { return; }
                    var r = e.getBoundingClientRect();
                    if (!r.width && !r.height) { return; }
                    if (r.left < box.left - 1 || r.right > box.right + 1) {
                      out.push((card.id || card.className) + ' > ' + e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
                        + '.' + e.className + ' [' + Math.round(r.left) + ',' + Math.round(r.right) + '] outside ['
                        + Math.round(box.left) + ',' + Math.round(box.right) + ']');
                    }
                  });
                });
                return out.slice(0, 20);""");
    }

    /** Form controls (visible or not) without a label naming them. */
    @SuppressWarnings("unchecked")
    static List<String> unlabelled(ChromeDriver browser) {
        return (List<String>) browser.executeScript("""
                var out = [];
                document.querySelectorAll('input, select, textarea, button').forEach(function (e) {
                  if (e.type === 'hidden') { return; }
                  var named = e.tagName === 'BUTTON'
                    ? (e.textContent.trim() || e.getAttribute('aria-label'))
                    : ((e.labels && e.labels.length && e.labels[0].textContent.trim()) || e.getAttribute('aria-label'));
                  if (!named) { out.push(e.tagName.toLowerCase() + '#' + e.id); }
                });
                return out;""");
    }
}
