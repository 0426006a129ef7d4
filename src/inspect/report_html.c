/* report_html.c: report.html, one file, no network: the report JSON inlined
 * in a <script type="application/json"> and rendered by inline JavaScript:
 * summary cards, the dispatch path, the sortable and filterable call table,
 * a drift chart per launch and the trace timeline. */
#include "inspect/inspect_internal.h"

static const char html_head[] =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<title>cubridge inspector report</title>\n<style>\n"
    "body{font:14px/1.4 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}\n"
    "header{background:#1d2330;color:#fff;padding:14px 24px}header h1{margin:0;font-size:20px}\n"
    "header .sub{opacity:.7;font-size:12px}main{padding:16px 24px}\n"
    ".cards{display:grid;grid-template-columns:repeat(6,1fr);gap:12px;margin-bottom:16px}\n"
    ".card{background:#fff;border-radius:8px;padding:12px;box-shadow:0 1px 3px #0002}\n"
    ".card .k{font-size:11px;text-transform:uppercase;color:#667}.card .v{font-size:20px;font-weight:600;"
    "margin-top:4px;word-break:break-word}\n"
    ".card .v.small{font-size:14px}.PASS,.OK,.TRACED{color:#16803c}.PROBE{color:#6b7280}.DRIFT,.UNSUPPORTED,.FAILED,.FAULT,.ERROR"
    "{color:#c62828}.SKIPPED{color:#a36b00}\n"
    "section{background:#fff;border-radius:8px;padding:12px 16px;margin-bottom:16px;box-shadow:0 1px 3px #0002}\n"
    "section h2{font-size:15px;margin:0 0 10px}.path{display:flex;flex-wrap:wrap;align-items:center;gap:6px}\n"
    ".step{background:#e8eefc;border:1px solid #b8c8f0;border-radius:6px;padding:6px 10px}.arrow{color:#889}\n"
    "table{border-collapse:collapse;width:100%;font-size:12.5px}th{text-align:left;background:#eef0f4;"
    "cursor:pointer;padding:6px;position:sticky;top:0;user-select:none}\n"
    "td{padding:5px 6px;border-top:1px solid #e5e7eb;vertical-align:top}td.notes{color:#445;max-width:480px;"
    "word-break:break-word}\n"
    ".tools{display:flex;gap:8px;margin-bottom:8px}.tools input{flex:1;padding:5px}.scroll{max-height:520px;"
    "overflow:auto}\n"
    "svg text{font:10px system-ui,sans-serif;fill:#334}.legend{font-size:12px;color:#556}\n"
    "</style></head><body>\n";

static const char html_body[] =
    "<header><h1>cubridge dispatch inspector</h1><div class=\"sub\" id=\"sub\"></div></header>\n<main>\n"
    "<div class=\"cards\" id=\"cards\"></div>\n"
    "<section><h2>Dispatch path</h2><div class=\"path\" id=\"path\"></div></section>\n"
    "<section><h2>Calls</h2><div class=\"tools\"><input id=\"filter\" placeholder=\"filter: entry, subsystem, "
    "status, notes...\"><select id=\"status\"><option value=\"\">all statuses</option></select></div>\n"
    "<div class=\"scroll\"><table id=\"calls\"><thead><tr><th data-k=\"entry\">CUDA API entry</th>"
    "<th data-k=\"target\">translation target</th><th data-k=\"subsystem\">subsystem</th><th data-k=\"status\">"
    "status</th><th data-k=\"drift\">measured drift</th><th data-k=\"count\">calls</th><th data-k=\"notes\">"
    "notes &amp; traps</th></tr></thead><tbody></tbody></table></div></section>\n"
    "<section><h2>Drift per launch (max relative L1 vs the CPU reference)</h2><div id=\"drift\"></div>"
    "<div class=\"legend\">bar height: log10 of the relative L1 difference (floor 1e-12); dashed: f32 rtol "
    "1.3e-6; colour: verdict</div></section>\n"
    "<section><h2>Trace timeline</h2><div id=\"timeline\" class=\"scroll\"></div><div class=\"legend\">one lane per "
    "host thread (driver calls) and per stream (kernels); red: an error. The full trace is trace.perfetto.json "
    "(ui.perfetto.dev).</div></section>\n"
    "</main>\n";

static const char html_script[] =
    "<script>\n"
    "const R=JSON.parse(document.getElementById('report-data').textContent);\n"
    "const S=R.summary;const $=id=>document.getElementById(id);\n"
    "function esc(s){return String(s).replace(/[&<>\"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','\"':'&quot;'}[c]))}\n"
    "function fmtB(b){return b>=1048576?(b/1048576).toFixed(1)+' MiB':b>=1024?(b/1024).toFixed(1)+' KiB':b+' B'}\n"
    "$('sub').textContent='schema '+R.schema+' | mode '+(R.mode.verify?'verify':'trace')+(R.mode.strict?' strict':'')"
    "+(R.mode.fault?' | fault planted: '+R.mode.fault:'');\n"
    "const cards=[['backend',S.backend],['device',S.device,1],['mapped exports',S.coverage.mapped+' / '+S.coverage.total"
    "+' driver'],['worst drift',S.verified?S.worst_rel_l1.toExponential(2):'not verified'],['peak memory',"
    "fmtB(S.peak_device_bytes)],['status',S.status+(S.status=='PASS'?', '+(S.nan_inf?S.nan_inf+' NaN':'zero NaN'):'')]];\n"
    "$('cards').innerHTML=cards.map(c=>'<div class=\"card\" data-card=\"'+esc(c[0])+'\"><div class=\"k\">'+esc(c[0])"
    "+'</div><div class=\"v'+(c[2]?' small':'')+(c[0]=='status'?' '+esc(S.status):'')+'\">'+esc(c[1])+'</div></div>').join('');\n"
    "$('path').innerHTML=R.dispatch_path.map(s=>'<span class=\"step\">'+esc(s)+'</span>').join('<span class=\"arrow\">"
    "&#8594;</span>');\n"
    "let rows=R.calls.slice(),key='status',dir=-1;\n"
    "const rank={DRIFT:6,UNSUPPORTED:5,FAILED:5,ERROR:4,SKIPPED:3,PASS:2,TRACED:1,PROBE:1,OK:0};\n"
    "[...new Set(rows.map(r=>r.status))].forEach(s=>{const o=document.createElement('option');o.value=s;"
    "o.textContent=s;$('status').appendChild(o)});\n"
    "function val(r,k){if(k=='status')return rank[r.status]||0;if(k=='drift'||k=='count')return r[k]==null?-1:r[k];"
    "return String(r[k]||'').toLowerCase()}\n"
    "function render(){const f=$('filter').value.toLowerCase(),st=$('status').value;\n"
    " const v=rows.filter(r=>(!st||r.status==st)&&(!f||[r.entry,r.target,r.subsystem,r.status,r.notes].join(' ')"
    ".toLowerCase().includes(f)));\n"
    " v.sort((a,b)=>{const x=val(a,key),y=val(b,key);return (x<y?-1:x>y?1:0)*dir});\n"
    " document.querySelector('#calls tbody').innerHTML=v.map(r=>'<tr data-status=\"'+esc(r.status)+'\"><td>'"
    "+esc(r.entry)+'</td><td>'+esc(r.target)+'</td><td>'+esc(r.subsystem)+'</td><td class=\"'+esc(r.status)+'\">'"
    "+esc(r.status)+'</td><td>'+(r.drift==null?'-':r.drift.toExponential(2))+'</td><td>'+r.count+'</td>"
    "<td class=\"notes\">'+esc(r.notes)+'</td></tr>').join('')}\n"
    "document.querySelectorAll('#calls th').forEach(th=>th.onclick=()=>{const k=th.dataset.k;dir=key==k?-dir:1;"
    "key=k;render()});\n"
    "$('filter').oninput=render;$('status').onchange=render;render();\n"
    "(function(){const L=R.launches;if(!L.length){$('drift').textContent='no launches';return}\n"
    " const W=Math.max(600,Math.min(L.length*14,4000)),H=180,bw=Math.max(2,(W-60)/L.length),lo=-12,hi=0;\n"
    " const y=v=>H-20-(Math.max(lo,Math.min(hi,v))-lo)/(hi-lo)*(H-40);\n"
    " let s='<svg id=\"drift-chart\" width=\"'+W+'\" height=\"'+H+'\">';\n"
    " for(let e=lo;e<=hi;e+=3)s+='<line x1=\"50\" x2=\"'+W+'\" y1=\"'+y(e)+'\" y2=\"'+y(e)+'\" stroke=\"#eee\"/>"
    "<text x=\"4\" y=\"'+(y(e)+3)+'\">1e'+e+'</text>';\n"
    " s+='<line x1=\"50\" x2=\"'+W+'\" y1=\"'+y(Math.log10(1.3e-6))+'\" y2=\"'+y(Math.log10(1.3e-6))+'\" "
    "stroke=\"#c62828\" stroke-dasharray=\"4\"/>';\n"
    " L.forEach((l,i)=>{const d=l.max_rel_l1>0?Math.log10(l.max_rel_l1):lo;const c=l.verdict=='DRIFT'?'#c62828':"
    "l.verdict=='PASS'?'#2e7d32':l.verdict=='SKIPPED'?'#e0a000':'#90a4ae';const x=50+i*bw;\n"
    "  s+='<rect class=\"bar\" data-verdict=\"'+l.verdict+'\" x=\"'+x+'\" y=\"'+y(d)+'\" width=\"'+Math.max(1,bw-1)"
    "+'\" height=\"'+(H-20-y(d)+2)+'\" fill=\"'+c+'\"><title>#'+i+' '+esc(l.kernel)+' '+l.verdict+' rel L1 '"
    "+l.max_rel_l1+' '+esc(l.note)+'</title></rect>'});\n"
    " $('drift').innerHTML=s+'</svg>'})();\n"
    "(function(){const T=R.timeline;if(!T.length){$('timeline').textContent='no events';return}\n"
    " const tracks=[...new Set(T.map(e=>e.track))].sort((a,b)=>(a[0]=='s')-(b[0]=='s')||a.localeCompare(b));\n"
    " const t0=Math.min(...T.map(e=>e.t_ns)),t1=Math.max(...T.map(e=>e.t_ns+e.dur_ns)),W=1100,lane=22,"
    "x=t=>120+(t-t0)/Math.max(1,t1-t0)*(W-130);\n"
    " let s='<svg id=\"timeline-svg\" width=\"'+W+'\" height=\"'+(tracks.length*lane+24)+'\">';\n"
    " tracks.forEach((t,i)=>s+='<text x=\"4\" y=\"'+(i*lane+15)+'\">'+esc(t)+'</text><line x1=\"120\" x2=\"'+W+'\" "
    "y1=\"'+(i*lane+20)+'\" y2=\"'+(i*lane+20)+'\" stroke=\"#eee\"/>');\n"
    " T.forEach(e=>{const i=tracks.indexOf(e.track);s+='<rect x=\"'+x(e.t_ns)+'\" y=\"'+(i*lane+4)+'\" width=\"'"
    "+Math.max(1,x(e.t_ns+e.dur_ns)-x(e.t_ns))+'\" height=\"14\" fill=\"'+(e.ok?(e.kind=='launch'?'#3f6fd8':'#8aa4c8')"
    ":'#c62828')+'\"><title>'+esc(e.name)+' '+(e.dur_ns/1000).toFixed(1)+' us</title></rect>'});\n"
    " s+='<text x=\"120\" y=\"'+(tracks.length*lane+18)+'\">0</text><text x=\"'+(W-80)+'\" y=\"'+(tracks.length*lane+18)"
    "+'\">'+((t1-t0)/1e6).toFixed(2)+' ms</text>';\n"
    " $('timeline').innerHTML=s+'</svg>'})();\n"
    "</script>\n</body></html>\n";

int cbi_report_html(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        cb_log(CB_LOG_WARN, "inspector: cannot write %s", path);
        return -1;
    }
    fputs(html_head, f);
    fputs(html_body, f);
    fputs("<script id=\"report-data\" type=\"application/json\">\n", f);
    cbi_json_report(f);
    fputs("</script>\n", f);
    fputs(html_script, f);
    return fclose(f) == 0 ? 0 : -1;
}
