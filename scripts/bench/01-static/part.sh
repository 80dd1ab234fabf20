# shellcheck shell=bash disable=SC2154  # the driver sets $tmp, $part, h_url, the settings
# Parts 1-3 of scripts/bench/bench.sh (sourced by it; see its header): handy's page next to a
# bare net/http server (benchbare/), Caddy (caddy-bench.Caddyfile) and nginx (nginx-bench.conf)
# serving the same bytes, then wrk against the four, alternating, over plain HTTP and TLS. Uses
# the plain and tls handies the driver started.

# Stops nginx: QUIT to the master named in its pid file, which exits once its workers have.
stop_nginx() {
  if [ -s "$tmp/nginx/nginx.pid" ]; then kill -QUIT "$(cat "$tmp/nginx/nginx.pid")" 2>/dev/null || true; fi
  # The master (nginx_pid) exits once its workers have; make sure it does.
  for _ in $(seq 50); do kill -0 "$nginx_pid" 2>/dev/null || break; sleep 0.1; done
  stop_pid "$nginx_pid"
}

# fetch NAME URL: the page exactly as NAME sends it to a gzip client (status, headers, raw gzip
# body) into $tmp/NAME.get (headers), $tmp/NAME.gz (body); checks 200 (HEAD and GET) and gzip.
fetch() {
  local name=$1 url=$2 status
  status=$(curl_ -I -H 'Accept-Encoding: gzip' "$url" | head -n1 | awk '{print $2}')
  [ "$status" = 200 ] || die "HEAD $page on $name answered $status, not 200"
  curl_ -D "$tmp/$name.get-head" -o "$tmp/$name.gz" -H 'Accept-Encoding: gzip' -w '%{http_code}' "$url" >"$tmp/$name.code"
  [ "$(cat "$tmp/$name.code")" = 200 ] || die "GET $page on $name answered $(cat "$tmp/$name.code"), not 200"
  tr -d '\r' <"$tmp/$name.get-head" >"$tmp/$name.get"
  grep -qi '^content-encoding: gzip$' "$tmp/$name.get" || { cat "$tmp/$name.get" >&2; die "$name did not answer $page with Content-Encoding: gzip"; }
}
# $tmp/page-MODE.gz and .html: what the other servers serve in each mode.
for mode in plain tls; do
  fetch "handy-$mode" "${h_url[$mode]}$page"
  cp "$tmp/handy-$mode.gz" "$tmp/page-$mode.gz"
  gzip -t "$tmp/page-$mode.gz" 2>/dev/null || die "handy's gzip body for $page ($mode) is not valid gzip"
  gzip -dc "$tmp/page-$mode.gz" >"$tmp/page-$mode.html"
  echo "bench: $page from handy ($mode): 200, gzip, $(wc -c <"$tmp/page-$mode.gz") bytes ($(wc -c <"$tmp/page-$mode.html") uncompressed)"
done

# --- 2. bare net/http, Caddy and nginx, serving the same bytes --------------------------------
# copy_headers HEAD KIND OUT: handy's other headers (from the response head HEAD), so that every
# server sends about the same header bytes, as nginx add_header lines or a Caddy header block.
# Those the server makes itself (or must not repeat) are left out; a value it cannot quote
# safely is skipped, with a note.
copy_headers() {
  local head=$1 kind=$2 out=$3 line name value
  : >"$out"
  # Caddy: deferred, so that handy's ETag and Content-Type win over file_server's; the headers
  # Caddy adds and handy does not send are removed.
  [ "$kind" = nginx ] || printf 'header {\n\tdefer\n\t-Server\n\t-Last-Modified\n\t-Accept-Ranges\n' >>"$out"
  while IFS= read -r line; do
    name=${line%%:*}
    value=${line#*: }
    case "${name,,}" in
      ''|http/*|date|content-length|content-encoding|vary|connection|keep-alive|server|transfer-encoding|accept-ranges|last-modified) continue ;;
      content-type) [ "$kind" = caddy ] || continue ;;
    esac
    if [ "$kind" = nginx ]; then
      case "$value" in *'$'*|*\\*) echo "bench: note: not copying header $name to nginx (has \$ or \\)"; continue ;; esac
      printf 'add_header %s "%s";\n' "$name" "${value//\"/\\\"}" >>"$out"
    else
      case "$value" in *'{'*|*'}'*|*\\*) echo "bench: note: not copying header $name to Caddy (has {, } or \\)"; continue ;; esac
      printf '\t%s "%s"\n' "$name" "${value//\"/\\\"}" >>"$out"
    fi
  done <"$head"
  [ "$kind" = nginx ] || echo '}' >>"$out"
}

declare -A plain_url=() tls_url=()
plain_url[handy]=$handy_url
tls_url[handy]=${h_url[tls]}

# The bare net/http server.
p1="" p2=""
go build -o "$tmp/benchbare" "./$part/benchbare"
free_port p1; free_port p2
plain_url[bare]="http://127.0.0.1:$p1"
tls_url[bare]="https://127.0.0.1:$p2"
"$tmp/benchbare" -path "$page" -addr "127.0.0.1:$p1" \
  -gzip "$tmp/page-plain.gz" -plain "$tmp/page-plain.html" -headers "$tmp/handy-plain.get" \
  -tls-addr "127.0.0.1:$p2" -tls-cert "$tmp/cert.pem" -tls-key "$tmp/key.pem" \
  -tls-gzip "$tmp/page-tls.gz" -tls-plain "$tmp/page-tls.html" -tls-headers "$tmp/handy-tls.get" \
  >"$tmp/bare.log" 2>&1 &
bare_pid=$!
# shellcheck disable=SC2016  # expanded when the hook runs
at_exit 'stop_pid "$bare_pid"'

# The page files of each mode under PREFIX/html and PREFIX/html-tls.
place_pages() {
  mkdir -p "$1/html/de" "$1/html-tls/de"
  cp "$tmp/page-plain.gz" "$1/html/de/area-calculator.gz"
  cp "$tmp/page-plain.html" "$1/html/de/area-calculator"
  cp "$tmp/page-tls.gz" "$1/html-tls/de/area-calculator.gz"
  cp "$tmp/page-tls.html" "$1/html-tls/de/area-calculator"
}

# Caddy.
cdy="$tmp/caddy"
mkdir -p "$cdy/home"
place_pages "$cdy"
copy_headers "$tmp/handy-plain.get" caddy "$cdy/headers.caddy"
copy_headers "$tmp/handy-tls.get" caddy "$cdy/headers-tls.caddy"
free_port p1; free_port p2
plain_url[caddy]="http://127.0.0.1:$p1"
tls_url[caddy]="https://127.0.0.1:$p2"
sed -e "s|@DIR@|$cdy|g" -e "s/@TLS_PORT@/$p2/g" -e "s/@PORT@/$p1/g" \
  -e "s|@CERT@|$tmp/cert.pem|g" -e "s|@KEY@|$tmp/key.pem|g" "$part/caddy-bench.Caddyfile" >"$cdy/Caddyfile"
# Its storage and config directories in the temp dir, not the user's.
HOME="$cdy/home" XDG_DATA_HOME="$cdy/home" XDG_CONFIG_HOME="$cdy/home" \
  caddy run --config "$cdy/Caddyfile" --adapter caddyfile >"$tmp/caddy.log" 2>&1 &
caddy_pid=$!
# shellcheck disable=SC2016  # expanded when the hook runs
at_exit 'stop_pid "$caddy_pid"'

# nginx.
ngx="$tmp/nginx"
mkdir -p "$ngx/tmp"
place_pages "$ngx"
copy_headers "$tmp/handy-plain.get" nginx "$ngx/headers.conf"
copy_headers "$tmp/handy-tls.get" nginx "$ngx/headers-tls.conf"
free_port p1; free_port p2
plain_url[nginx]="http://127.0.0.1:$p1"
tls_url[nginx]="https://127.0.0.1:$p2"
sed -e "s/@TLS_PORT@/$p2/g" -e "s/@PORT@/$p1/g" -e "s|@CERT@|$tmp/cert.pem|g" -e "s|@KEY@|$tmp/key.pem|g" \
  "$part/nginx-bench.conf" >"$ngx/nginx.conf"
# nginx runs as root only to drop to nobody: let its workers read the files.
chmod -R a+rX "$tmp"
nginx -t -q -p "$ngx" -c "$ngx/nginx.conf" -e "$ngx/error.log" 2>"$tmp/nginx-t.log" || { cat "$tmp/nginx-t.log" >&2; die "nginx config test failed"; }
nginx -p "$ngx" -c "$ngx/nginx.conf" -e "$ngx/error.log" >"$tmp/nginx.log" 2>&1 &
nginx_pid=$!
at_exit stop_nginx

wait_up "${plain_url[bare]}$page" "$bare_pid" "bare net/http" "$tmp/bare.log"
wait_up "${plain_url[caddy]}$page" "$caddy_pid" Caddy "$tmp/caddy.log"
wait_up "${plain_url[nginx]}$page" "$nginx_pid" nginx "$ngx/error.log"
for _ in $(seq 50); do [ -s "$ngx/nginx.pid" ] && break; sleep 0.1; done
echo "bench: bare net/http (pid $bare_pid) on ${plain_url[bare]} and ${tls_url[bare]}"
echo "bench: Caddy (pid $caddy_pid) on ${plain_url[caddy]} and ${tls_url[caddy]}"
echo "bench: nginx (pid $(cat "$ngx/nginx.pid" 2>/dev/null || echo "$nginx_pid")) on ${plain_url[nginx]} and ${tls_url[nginx]}"

servers=(handy bare caddy nginx)
for mode in plain tls; do
  for s in bare caddy nginx; do
    if [ "$mode" = plain ]; then u=${plain_url[$s]}; else u=${tls_url[$s]}; fi
    fetch "$s-$mode" "$u$page"
    cmp -s "$tmp/page-$mode.gz" "$tmp/$s-$mode.gz" || die "$s's body ($mode) differs from handy's"
  done
  hb=$(wc -c <"$tmp/handy-$mode.get-head")
  line="bench: $mode: all four answer 200 with the identical $(wc -c <"$tmp/page-$mode.gz")-byte gzip body; header bytes: handy $hb"
  for s in bare caddy nginx; do
    b=$(wc -c <"$tmp/$s-$mode.get-head")
    line+=", $s $b"
    # Within 10 % of handy's, else the comparison is not of like with like.
    [ $((b * 10)) -ge $((hb * 9)) ] && [ $((b * 10)) -le $((hb * 11)) ] \
      || echo "bench: WARNING: $s sends $b header bytes ($mode) where handy sends $hb"
  done
  echo "$line"
  for s in "${servers[@]}"; do
    echo "  $s headers: $(grep -v '^HTTP/\|^$' "$tmp/$s-$mode.get" | cut -d: -f1 | paste -sd, -)"
  done
done

# --- 3. alternating wrk runs, plain HTTP and TLS ----------------------------------------------
wrk_cmd=(wrk -t2 -c64 -H 'Accept-Encoding: gzip')  # + -dDURATION URL
secs=${duration%s}
[[ "$secs" =~ ^[0-9]+$ ]] || secs=60

# Runs wrk against URL, prints a one-line summary, appends req/s to FILE; warns on errors.
bench_run() {
  local label=$1 url=$2 file=$3 d=$4 out rps lat err non2xx
  out=$(timeout $((secs + 30)) "${wrk_cmd[@]}" -d"$d" "$url") || die "wrk failed against $url"
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  lat=$(awk '$1 == "Latency" {print $2}' <<<"$out")
  [ -n "$rps" ] || { echo "$out" >&2; die "could not read Requests/sec from wrk"; }
  non2xx=$(awk -F': *' '/Non-2xx or 3xx responses/ {print $2}' <<<"$out")
  err=$(grep -E '^ *Socket errors' <<<"$out" || true)
  printf '  %-6s %-5s %12s req/s   latency avg %s\n' "$label" "$d" "$rps" "$lat"
  [ -z "$non2xx" ] || echo "  WARNING: $label: $non2xx non-2xx/3xx responses"
  [ -z "$err" ] || echo "  WARNING: $label:$err"
  [ -z "$file" ] || echo "$rps" >>"$file"
}

median() { sort -g "$1" | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
# ratio_line LABEL H O GOAL: "LABEL req/s ratio: R (goal ≥ G): met|MISSED"; GOAL "" for none.
ratio_line() {
  awk -v l="$1" -v h="$2" -v o="$3" -v g="$4" 'BEGIN {
    r = h / o
    if (g == "") printf "%s req/s ratio: %.2f\n", l, r
    else printf "%s req/s ratio: %.2f (goal ≥ %.2f): %s\n", l, r, g, (r >= g ? "met" : "MISSED") }'
}

for mode in $modes; do
  declare -A murl=()
  for s in "${servers[@]}"; do
    if [ "$mode" = plain ]; then murl[$s]=${plain_url[$s]}$page; else murl[$s]=${tls_url[$s]}$page; fi
  done
  if [ "$mode" = plain ]; then what="plain HTTP"; else what="TLS"; fi
  echo
  echo "bench: $what: wrk -t2 -c64 -H 'Accept-Encoding: gzip' -d$duration URL — warm-up $warmup each," \
    "then $rounds rounds alternating ${servers[*]}"
  for s in "${servers[@]}"; do bench_run "$s" "${murl[$s]}" "" "$warmup"; : >"$tmp/$mode-$s.rps"; done
  for i in $(seq "$rounds"); do
    for s in "${servers[@]}"; do bench_run "$s" "${murl[$s]}" "$tmp/$mode-$s.rps" "$duration"; done
    awk -v i="$i" -v h="$(sed -n "${i}p" "$tmp/$mode-handy.rps")" -v b="$(sed -n "${i}p" "$tmp/$mode-bare.rps")" \
      -v c="$(sed -n "${i}p" "$tmp/$mode-caddy.rps")" -v n="$(sed -n "${i}p" "$tmp/$mode-nginx.rps")" \
      'BEGIN {printf "  round %d: handy/bare %.2f, handy/caddy %.2f, handy/nginx %.2f\n", i, h / b, h / c, h / n}'
  done
  hm=$(median "$tmp/$mode-handy.rps"); bm=$(median "$tmp/$mode-bare.rps")
  cm=$(median "$tmp/$mode-caddy.rps"); nm=$(median "$tmp/$mode-nginx.rps")
  echo
  awk -v w="$what" -v h="$hm" -v b="$bm" -v c="$cm" -v n="$nm" \
    'BEGIN {printf "%s: median req/s: handy %.0f, bare net/http %.0f, caddy %.0f, nginx %.0f\n", w, h, b, c, n}'
  echo "$what: $(ratio_line handy/bare "$hm" "$bm" "$goal_bare")"
  echo "$what: $(ratio_line handy/caddy "$hm" "$cm" "$goal_caddy")"
  if [ "$mode" = plain ]; then
    echo "$what: $(ratio_line handy/nginx "$hm" "$nm" "$goal")"
  else
    echo "$what: $(ratio_line handy/nginx "$hm" "$nm" "") (the goal of $goal is plain HTTP's)"
  fi
  unset murl
done
for name in plain tls; do
  log="$tmp/handy-$name.log"
  if grep -q . "$log"; then
    echo "bench: handy ($name) wrote $(wc -l <"$log") log lines; last ones:"
    tail -n 3 "$log" | cut -c1-200 | sed 's/^/  /'
  fi
done

