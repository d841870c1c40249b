# screen.sh — sourced by the editor tests that look at the screen as the user
# sees it: a terminal editor in a tmux pane of its own server (-L), typed
# into with send-keys and read with capture-pane. Every wait polls with a
# guard against a hang; none is a fixed delay.
#
#   screen_start NAME WIDTH HEIGHT COMMAND   a detached pane running COMMAND
#   screen_keys NAME KEY...                  tmux send-keys
#   screen_text NAME                         the pane's text now
#   screen_wait NAME ERE [TENTHS]            until the pane shows ERE (grep -E);
#                                            1 after TENTHS tenths of a second
#                                            (default 600), the pane on stderr
#   screen_stop NAME

screen_start() {
    tmux -L "sb-$1" kill-server 2>/dev/null || true
    tmux -L "sb-$1" new-session -d -x "$2" -y "$3" "$4"
}

screen_keys() {
    name=$1; shift
    tmux -L "sb-$name" send-keys "$@"
}

screen_text() {
    tmux -L "sb-$1" capture-pane -p 2>/dev/null
}

screen_wait() {
    i=0
    while ! screen_text "$1" | grep -Eq -- "$2"; do
        i=$((i + 1))
        if [ $i -gt "${3:-600}" ]; then
            echo "screen: no \"$2\" on the screen; it shows:" >&2
            screen_text "$1" >&2
            return 1
        fi
        sleep 0.1
    done
}

screen_stop() {
    tmux -L "sb-$1" kill-server 2>/dev/null || true
}
