;;; sonicboom.el --- Code edits by instruction through sb-lsp  -*- lexical-binding: t -*-

;; Version: 0.1
;; Package-Requires: ((emacs "28.1"))
;; Keywords: tools, languages

;;; Commentary:

;; The Emacs side of SonicBoom: `sonicboom-edit' asks for an instruction
;; and has the language server `sb-lsp --stdio' rewrite the region's lines
;; (or the whole buffer).  It runs under eglot (1.9 and newer,
;; sonicboom-eglot.el) or lsp-mode (8.0 and newer, sonicboom-lsp.el):
;;
;;   (require 'sonicboom)
;;   (sonicboom-eglot-setup)      ; or (sonicboom-lsp-mode-setup)
;;
;; An edit is asynchronous: the request has no timeout (a CPU edit of a
;; whole file can take longer than the clients' 10 s default), progress
;; shows in the mode line, `sonicboom-cancel' stops it and nothing is
;; applied.  The server sends the result as one workspace/applyEdit, which
;; both clients apply as one undo step; if the buffer changed while the
;; model wrote, the server applies nothing and says so.
;;
;; This file holds what both clients share; each backend gives
;; `sonicboom--start' a plist of functions (see there).

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defgroup sonicboom nil
  "Code edits by instruction through the SonicBoom language server."
  :group 'tools
  :prefix "sonicboom-")

(defcustom sonicboom-server-command '("sb-lsp" "--stdio")
  "The command that starts the language server."
  :type '(repeat string))

(defcustom sonicboom-modes
  '(c-mode c++-mode python-mode js-mode typescript-mode rust-mode go-mode
    java-mode json-mode sh-mode lua-mode yaml-mode markdown-mode)
  "Major modes whose buffers sb-lsp serves."
  :type '(repeat symbol))

(defcustom sonicboom-model nil
  "GGUF model path; nil: the server's default (the demo model)."
  :type '(choice (const nil) file))

(defcustom sonicboom-device nil
  "Where the model runs: \"cpu\" or \"cuda\"; nil: the server's default."
  :type '(choice (const nil) (const "cpu") (const "cuda")))

(defcustom sonicboom-threads nil
  "CPU threads (0: all cores); nil: the server's default."
  :type '(choice (const nil) integer))

(defcustom sonicboom-seed nil
  "Sampling seed; nil: the server's default (0)."
  :type '(choice (const nil) integer))

(defcustom sonicboom-temperature nil
  "Sampling temperature (0: greedy); nil: the server's default."
  :type '(choice (const nil) number))

(defcustom sonicboom-log nil
  "Session log path (JSON lines that `sb replay' re-runs); nil: none."
  :type '(choice (const nil) file))

(defcustom sonicboom-max-tokens nil
  "Output cap in tokens (0: automatic); nil: the server's default."
  :type '(choice (const nil) integer))

(defcustom sonicboom-confirm-edits nil
  "Non-nil: ask before applying an edit the model made.
Only with `sonicboom-preview' off: the preview is the question."
  :type 'boolean)

(defcustom sonicboom-preview t
  "Non-nil: show an edit's hunks in the buffer before anything changes,
to accept or reject one by one (`sonicboom-preview-mode'); nil: apply
the edit at once."
  :type 'boolean)

(defcustom sonicboom-preview-streaming t
  "Non-nil (with `sonicboom-preview'): show the edit's new text while the
model writes it, below the lines it rewrites, until its hunks replace it
(the server's previewStreaming)."
  :type 'boolean)

(defun sonicboom--init-options (&rest _)
  "The initializationOptions for sb-lsp, from the settings above."
  (let ((opts nil))
    (dolist (pair `((:model . ,sonicboom-model) (:device . ,sonicboom-device)
                    (:threads . ,sonicboom-threads) (:seed . ,sonicboom-seed)
                    (:temperature . ,sonicboom-temperature) (:log . ,sonicboom-log)
                    (:maxTokens . ,sonicboom-max-tokens)
                    (:previewStreaming . ,(and sonicboom-preview
                                               sonicboom-preview-streaming t))))
      (when (cdr pair)
        (setq opts (plist-put opts (car pair) (cdr pair)))))
    (or opts (make-hash-table))))

;;;; JSON values from either client

(defun sonicboom--get (obj key)
  "KEY (a string) of OBJ, a JSON object as a plist or a hash table."
  (cond ((hash-table-p obj) (gethash key obj))
        ((listp obj) (plist-get obj (intern (concat ":" key))))))

(defun sonicboom--to-plist (obj)
  "OBJ (a JSON object as a hash table or a plist) as a plist."
  (if (hash-table-p obj)
      (let ((out nil))
        (maphash (lambda (k v) (setq out (plist-put out (intern (concat ":" k)) v))) obj)
        out)
    (copy-sequence obj)))

;;;; The running edit

(defvar sonicboom--running nil
  "The edit in flight, or nil: a plist (:token :buffer :backend :title
:message :cancelling).")

(defvar sonicboom--counter 0)

(defvar sonicboom-last-message ""
  "The last outcome shown to the user (tests read it).")

(defun sonicboom-status ()
  "The running edit's progress, else an empty string.
Plain text: in a mode-line construct of your own, escape its `%' as
`sonicboom--mode-line' does (\"0% of drafts\" would show as \"0of drafts\")."
  (if sonicboom--running
      (concat " " (plist-get sonicboom--running :message))
    ""))

(defvar sonicboom--mode-line
  '(:eval (string-replace "%" "%%" (sonicboom-status)))
  "The mode-line construct of our progress: the text, with `%' escaped.")
(put 'sonicboom--mode-line 'risky-local-variable t)

(defun sonicboom--show-mode-line ()
  "Put the edit's progress into `global-mode-string'.
A list there whose first element is a symbol is a conditional construct,
and a symbol alone as its first element renders as *invalid*: so the list
we add to starts with a string, the documented way (see `display-time')."
  (unless (and (consp global-mode-string) (stringp (car global-mode-string)))
    (setq global-mode-string (list "" global-mode-string)))
  (unless (memq 'sonicboom--mode-line global-mode-string)
    (setq global-mode-string (append global-mode-string '(sonicboom--mode-line)))))

(defun sonicboom-busy-p ()
  "Non-nil while an edit runs."
  (and sonicboom--running t))

(defun sonicboom--say (fmt &rest args)
  "Tell the user FMT with ARGS, prefixed, and remember it."
  (setq sonicboom-last-message (apply #'format (concat "SonicBoom: " fmt) args))
  (message "%s" sonicboom-last-message))

(defun sonicboom--finish (edit fmt &rest args)
  "End EDIT, if it still runs, telling the user FMT with ARGS."
  (when (eq sonicboom--running edit)
    (setq sonicboom--running nil)
    (when (plist-get edit :partial)
      (sonicboom-preview-clear-partial (plist-get edit :buffer)))
    (apply #'sonicboom--say fmt args)
    (force-mode-line-update t)))

(defun sonicboom--describe-error (err)
  "What the server's error ERR means to the user."
  (pcase (sonicboom--get err "code")
    (-32800 "cancelled; nothing was applied")
    (-32801 "the buffer changed during the edit; nothing was applied")
    (_ (or (sonicboom--get err "message") (format "%S" err)))))

(defun sonicboom--own-token-p (token)
  "Non-nil when TOKEN is the running edit's progress token."
  (and sonicboom--running (equal token (plist-get sonicboom--running :token))))

(defun sonicboom--progress (token value)
  "Shows $/progress VALUE (a WorkDoneProgress object) when TOKEN is ours.
Backends call this from their $/progress handler."
  (let ((edit sonicboom--running))
    (when (and edit (equal token (plist-get edit :token)))
      (let ((kind (sonicboom--get value "kind"))
            (msg (sonicboom--get value "message")))
        (when (equal kind "begin")
          (plist-put edit :title (sonicboom--get value "title")))
        (sonicboom--partial edit (sonicboom--get value "sonicboom"))
        (if (and (equal kind "end") (plist-get edit :cancelling)
                 (equal msg "cancelled"))
            ;; some clients drop the -32800 answer: the end of the
            ;; progress of a cancel we asked for finishes the edit
            (sonicboom--finish edit "cancelled; nothing was applied")
          (when msg
            (plist-put edit :message
                       (format "%s: %s" (or (plist-get edit :title) "SonicBoom") msg))
            (force-mode-line-update t)))))))

(defun sonicboom--partial (edit piece)
  "Adds PIECE (previewStreaming's {offset, text}) to EDIT's text so far
and shows it, when it continues what came before (offset: UTF-8 bytes)."
  (let ((text (and piece (sonicboom--get piece "text")))
        (so-far (or (plist-get edit :partial) "")))
    (when (and sonicboom-preview (stringp text)
               (equal (sonicboom--get piece "offset")
                      (string-bytes (encode-coding-string so-far 'utf-8))))
      (plist-put edit :partial (concat so-far text))
      (sonicboom-preview-show-partial (plist-get edit :buffer) (plist-get edit :first)
                                      (plist-get edit :last) (plist-get edit :partial)))))

(defun sonicboom--start (backend arg)
  "Runs sonicboom.edit with ARG (a plist: :uri :instruction :range? :version?).
BACKEND is a plist of functions from the client managing the buffer:
  :request (PARAMS ON-RESULT ON-ERROR)  sends workspace/executeCommand
                                        asynchronously, with no timeout
  :notify (METHOD PARAMS)               sends a notification
  :uri (), :version ()                  the current buffer's URI, version
  :buffer-of-uri (URI)                  the buffer visiting URI, or nil
  :position-to-point (POSITION)         an LSP position of the current
                                        buffer as a point"
  (if sonicboom--running
      (user-error "SonicBoom: an edit is already running (M-x sonicboom-cancel)")
    (let* ((token (format "sonicboom/emacs/%d/%d" (emacs-pid)
                          (cl-incf sonicboom--counter)))
           (range (plist-get arg :range))
           ;; the region's lines (0-based, end exclusive), for the
           ;; provisional view while the model writes
           (edit (list :token token :buffer (current-buffer) :backend backend
                       :message "SonicBoom: starting"
                       :first (if range (plist-get (plist-get range :start) :line) 0)
                       :last (if range (plist-get (plist-get range :end) :line)
                               (1+ (count-lines (point-min) (point-max)))))))
      (sonicboom--show-mode-line)
      (setq sonicboom--running edit)
      (force-mode-line-update t)
      (funcall (plist-get backend :request)
               (list :command "sonicboom.edit" :arguments (vector arg)
                     :workDoneToken token)
               (lambda (result)
                 (if (plist-get edit :previewed)
                     (sonicboom--finish edit "%d change(s) to review: %s"
                                        (plist-get edit :previewed)
                                        (sonicboom-preview-keys-hint))
                   (sonicboom--finish edit "done: %s change(s), %s tokens"
                                      (or (sonicboom--get result "hunks") 0)
                                      (or (sonicboom--get result "tokens") 0))))
               (lambda (err)
                 (sonicboom--finish edit "%s" (sonicboom--describe-error err))))
      edit)))

(defun sonicboom--line-range (beg end)
  "The LSP range of the whole lines BEG..END touch.
An END at the start of a line after BEG's stops before that line."
  (let ((first (1- (line-number-at-pos beg t)))
        (last (save-excursion
                (goto-char end)
                (if (and (bolp) (> end beg))
                    (1- (line-number-at-pos end t))
                  (line-number-at-pos end t)))))
    (list :start (list :line first :character 0)
          :end (list :line last :character 0))))

;;;; Backends

(defvar sonicboom--backends nil
  "Functions that return the backend plist for the current buffer, or nil.")

(defun sonicboom--backend ()
  "The backend serving the current buffer, or an error saying how to get one."
  (or (run-hook-with-args-until-success 'sonicboom--backends)
      (user-error "SonicBoom: sb-lsp does not serve this buffer (M-x eglot or M-x lsp \
after (sonicboom-eglot-setup) or (sonicboom-lsp-mode-setup))")))

;;;; Commands

(declare-function sonicboom-eglot--setup "sonicboom-eglot")
(declare-function sonicboom-preview-keys-hint "sonicboom-preview")
(declare-function sonicboom-preview-show-partial "sonicboom-preview")
(declare-function sonicboom-preview-clear-partial "sonicboom-preview")
(declare-function sonicboom-lsp--setup "sonicboom-lsp")

;;;###autoload
(defun sonicboom-edit (instruction &optional beg end)
  "Rewrite the lines of the region (or the buffer) as INSTRUCTION says.
Interactively, ask for INSTRUCTION in the minibuffer; BEG and END are
the region when it is active."
  (interactive
   (list (read-string "SonicBoom: ")
         (and (use-region-p) (region-beginning))
         (and (use-region-p) (region-end))))
  (when (string-empty-p (string-trim instruction))
    (user-error "SonicBoom: no instruction given"))
  (let* ((backend (sonicboom--backend))
         (arg (list :uri (funcall (plist-get backend :uri))
                    :instruction instruction))
         (version (funcall (plist-get backend :version))))
    (when version (setq arg (plist-put arg :version version)))
    (when (and beg end)
      (setq arg (plist-put arg :range (sonicboom--line-range beg end))))
    (deactivate-mark)
    (sonicboom--start backend arg)))

(defun sonicboom--edit-with-instruction (backend arg)
  "The free-text code action: ARG holds :uri :range :version; ask the
user for the instruction and run it through BACKEND."
  (let ((instruction (read-string "SonicBoom: ")))
    (unless (string-empty-p (string-trim instruction))
      (sonicboom--start backend (plist-put (sonicboom--to-plist arg)
                                           :instruction instruction)))))

;;;###autoload
(defun sonicboom-cancel ()
  "Stop the running edit; nothing is applied."
  (interactive)
  (let ((edit sonicboom--running))
    (if (not edit)
        (sonicboom--say "no edit is running")
      (plist-put edit :cancelling t)
      (plist-put edit :message "SonicBoom: cancelling")
      (funcall (plist-get (plist-get edit :backend) :notify)
               "window/workDoneProgress/cancel"
               (list :token (plist-get edit :token)))
      (force-mode-line-update t))))

;;;###autoload
(defun sonicboom-eglot-setup ()
  "Serve `sonicboom-modes' with sb-lsp under eglot (M-x eglot to start)."
  (require 'sonicboom-eglot)
  (sonicboom-eglot--setup))

;;;###autoload
(defun sonicboom-lsp-mode-setup ()
  "Register sb-lsp with lsp-mode for `sonicboom-modes' (M-x lsp to start)."
  (require 'sonicboom-lsp)
  (sonicboom-lsp--setup))

(provide 'sonicboom)
;;; sonicboom.el ends here
