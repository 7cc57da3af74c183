package dev.floe.catalog.report;

/** The report page's inline style sheet. System fonts only: the page loads nothing. */
final class ReportCss {

  private ReportCss() {}

  static final String CSS =
      """
      :root{--loaded:#3f9c5f;--reloaded:#2f6fcf;--late:#e8811a;--sealed:#4d5866;\
      --none:#eceff3;--ink:#1d2430;--muted:#6a7482;--line:#d5dae1;--rev:#8e44ad;\
      --mv:#c0392b}
      *{box-sizing:border-box}
      body{margin:0;padding:24px 32px;font:14px/1.45 system-ui,"DejaVu Sans",sans-serif;\
      color:var(--ink);background:#fff}
      h1{margin:0 0 4px;font-size:24px}
      h2{margin:28px 0 10px;font-size:18px;border-bottom:1px solid var(--line);padding-bottom:4px}
      h3{margin:16px 0 8px;font-size:15px}
      h4{margin:0 0 6px;font-size:13px;font-weight:600}
      code{font:12px/1.3 "DejaVu Sans Mono",monospace}
      .lede{margin:0 0 12px;color:var(--muted)}
      .muted{color:var(--muted);font-size:13px}
      .chips{display:flex;flex-wrap:wrap;gap:8px}
      .chip{border:1px solid var(--line);border-radius:14px;padding:3px 10px;background:#f7f8fa}
      .sw{display:inline-block;width:12px;height:12px;border-radius:3px;margin-right:6px;\
      vertical-align:-1px;position:relative}
      .legend{list-style:none;padding:0;margin:0 0 6px;font-size:13px}
      .legend li{margin:2px 0}
      .s-loaded{background:var(--loaded);color:#fff}
      .s-reloaded{background:var(--reloaded);color:#fff}
      .s-late{background:var(--late);color:#fff}
      .s-sealed{background:var(--sealed);color:#fff}
      .none{background:var(--none);color:#9aa3ae}
      .c.out{background:none;color:#c3c9d1}
      .months{display:flex;flex-wrap:wrap;gap:22px}
      .week{display:grid;grid-template-columns:repeat(7,30px);gap:3px}
      .dow{font-size:11px;color:var(--muted);text-align:center}
      .c{display:inline-block;width:30px;height:30px;border-radius:4px;font-size:12px;\
      line-height:30px;text-align:center;position:relative;cursor:default}
      .c.blank{background:none}
      .rows .row{display:flex;gap:3px;margin-bottom:3px;align-items:center}
      .rows .dow{width:30px}
      .rowlabel{width:92px;font-size:12px;color:var(--muted)}
      .unknown::after{content:"?";position:absolute;right:1px;top:1px;width:11px;height:11px;\
      border-radius:50%;background:#fff;color:var(--ink);font-size:9px;font-weight:700;\
      line-height:11px;text-align:center}
      .sw.unknown::after{right:-4px;top:-4px}
      .reported::after{content:"";position:absolute;right:3px;top:3px;width:6px;height:6px;\
      border-radius:50%;background:var(--late)}
      .sw.reported::after{right:3px;top:3px;width:6px;height:6px}
      details{margin-top:16px}
      table{border-collapse:collapse;margin-top:8px;font-size:12px}
      th,td{border-bottom:1px solid var(--line);padding:3px 8px;text-align:left;\
      vertical-align:top}
      .timeline{list-style:none;margin:0;padding:0 0 0 18px;border-left:3px solid var(--line)}
      .timeline li{position:relative;padding:4px 0 4px 10px;display:flex;flex-wrap:wrap;\
      gap:4px 10px;align-items:baseline}
      .timeline .dot{position:absolute;left:-26px;top:9px;width:13px;height:13px;\
      border-radius:50%;background:#fff;border:3px solid var(--ink)}
      .timeline li.branch .dot{border-color:var(--reloaded)}
      .timeline li.off .dot{border-color:#aab2bd}
      .timeline li.off{color:var(--muted)}
      .timeline li.current .dot{background:var(--ink)}
      .timeline li.revert .dot{border-color:var(--rev);background:var(--rev)}
      .timeline li.move .dot{border-color:var(--mv);background:var(--mv);border-radius:2px}
      .timeline li.move{background:#fdf0ee}
      time{font-variant-numeric:tabular-nums;color:var(--muted);font-size:12px}
      .id{color:var(--muted)}
      .op{font-size:12px;border:1px solid var(--line);border-radius:3px;padding:0 5px}
      .lane{font-size:11px;color:var(--muted);letter-spacing:.04em}
      .badge{font-size:12px;border-radius:3px;padding:0 6px;color:#fff;background:var(--muted)}
      .badge.cur{background:var(--ink)}
      .badge.rev{background:var(--rev)}
      .badge.pub{background:var(--loaded)}
      .badge.mv{background:var(--mv);text-transform:uppercase;font-weight:600}
      .badge.ref-rbtag{background:var(--mv)}
      .badge.ref-tag{background:#7f8c8d}
      .badge.ref-audit,.badge.ref-branch{background:var(--reloaded)}
      .badge.ref-main{background:var(--ink)}
      footer{margin-top:8px}
      footer dl{display:grid;grid-template-columns:140px 1fr;gap:2px 12px;margin:0}
      footer dt{color:var(--muted)}
      footer dd{margin:0}
      """;
}
