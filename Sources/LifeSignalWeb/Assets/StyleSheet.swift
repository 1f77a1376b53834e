extension WebAssets {
    /// One column that fits a phone; large type and targets (at least 48 px); colours that
    /// pass WCAG AA in light and dark; no motion for those who asked for none.
    static let styleSheet = """
        :root{--fg:#111;--bg:#fff;--muted:#3d3d3d;--card:#f3f4f6;--line:#c4c4c4;--link:#0b4f9c;\
        --ok:#0a5c2b;--ok-bg:#e8f5ec;--warn:#7a4a00;--warn-bg:#fff4d6;--bad:#a11a00;--bad-bg:#fde8e4;--focus:#111}
        @media (prefers-color-scheme:dark){:root{--fg:#f2f2f2;--bg:#121212;--muted:#c8c8c8;--card:#1e1e1e;--line:#555;\
        --link:#8cc4ff;--ok:#7ee2a0;--ok-bg:#12301d;--warn:#ffd27a;--warn-bg:#332708;--bad:#ff9a8a;--bad-bg:#3a1510;--focus:#fff}}
        *{box-sizing:border-box}
        html{-webkit-text-size-adjust:100%}
        body{margin:0;font:18px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
        main{max-width:38rem;margin:0 auto;padding:1rem}
        .bar{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;padding:.5rem 1rem;border-bottom:1px solid var(--line)}
        .brand{font-weight:800;font-size:1.15rem;color:var(--fg);text-decoration:none;padding:.6rem 0}
        nav ul{display:flex;flex-wrap:wrap;gap:.25rem;margin:0;padding:0;list-style:none}
        nav a{display:inline-block;padding:.6rem .75rem;min-height:48px;color:var(--link)}
        nav a[aria-current=page]{font-weight:700;color:var(--fg)}
        .skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--bg);padding:.5rem;z-index:1}
        h1{font-size:1.7rem;line-height:1.2;margin:.75rem 0}
        h2{font-size:1.25rem;margin:1.75rem 0 .5rem}
        a{color:var(--link)}
        p,dd{margin:.25rem 0 .75rem}dt{font-weight:700}dd{margin-left:0}
        .small{font-size:.95rem;color:var(--muted)}
        .visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
        .card{padding:1rem;border-radius:.75rem;background:var(--card);border-left:.5rem solid var(--ok)}
        .card.yellow,.card.orange{border-left-color:var(--warn)}.card.red{border-left-color:var(--bad)}.card.paused{border-left-color:var(--line)}
        .big-status{font-size:1.6rem;font-weight:800;margin:.25rem 0}
        .notice{padding:.75rem 1rem;border-radius:.5rem;background:var(--ok-bg);color:var(--fg);border-left:.4rem solid var(--ok)}
        .error{padding:.75rem 1rem;border-radius:.5rem;background:var(--bad-bg);color:var(--fg);border-left:.4rem solid var(--bad)}
        .alarm{padding:1rem;border-radius:.75rem;background:var(--bad-bg);border:2px solid var(--bad)}
        .alarm h2{margin-top:0}
        button,.button{display:block;width:100%;min-height:48px;margin:.5rem 0;padding:.75rem 1rem;border:2px solid var(--fg);\
        border-radius:.6rem;background:var(--bg);color:var(--fg);font:inherit;font-weight:700;text-align:center;text-decoration:none;cursor:pointer}
        .primary{background:#0a5c2b;border-color:#0a5c2b;color:#fff}
        .huge{min-height:5rem;font-size:1.5rem}
        .danger,.onit{background:#a11a00;border-color:#a11a00;color:#fff}
        .safe{background:#0a5c2b;border-color:#0a5c2b;color:#fff}
        .call{background:#0b4f9c;border-color:#0b4f9c;color:#fff}
        button.link{display:inline;width:auto;min-height:44px;border:0;background:none;color:var(--link);text-decoration:underline;padding:.5rem}
        :focus-visible{outline:3px solid var(--focus);outline-offset:3px}
        input,select{display:block;width:100%;min-height:48px;padding:.5rem .75rem;font:inherit;color:var(--fg);background:var(--bg);\
        border:2px solid var(--muted);border-radius:.5rem}
        input[type=radio]{display:inline-block;width:1.5rem;min-height:1.5rem;height:1.5rem;margin:0 .5rem 0 0;vertical-align:middle}
        label{display:block;font-weight:700;margin:.75rem 0 .25rem}
        label.choice{font-weight:400;min-height:48px;padding:.5rem 0}
        fieldset{border:1px solid var(--line);border-radius:.5rem;margin:1rem 0;padding:.5rem 1rem}
        legend{font-weight:700;padding:0 .25rem}
        details{margin:1.5rem 0}summary{cursor:pointer;min-height:48px;padding:.6rem 0;color:var(--link)}
        .row{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}.row label{margin:0}.row select{width:auto;flex:1}.row button{width:auto}
        .list{list-style:none;padding:0;margin:0}.list>li{padding:.75rem 0;border-bottom:1px solid var(--line)}
        .actions{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:0 .5rem}
        .tag{display:inline-block;padding:0 .5rem;border-radius:1rem;background:var(--card);border:1px solid var(--line);font-size:.95rem}
        .person.sos .tag,.person.overdue .tag{background:var(--bad-bg);border-color:var(--bad)}
        .person.ok .tag{background:var(--ok-bg);border-color:var(--ok)}
        .inline{display:inline}
        .qr img{display:block;width:100%;max-width:320px;height:auto;background:#fff;padding:.5rem;border-radius:.5rem}
        footer{max-width:38rem;margin:2rem auto;padding:0 1rem}
        @media (prefers-reduced-motion:reduce){*{animation:none!important;transition:none!important;scroll-behavior:auto!important}}
        """
}
