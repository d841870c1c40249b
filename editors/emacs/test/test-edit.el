;;; test-edit.el --- sonicboom.el end to end, in Emacs batch  -*- lexical-binding: t -*-

;; Run by editors/emacs/test/run.sh, which prepares $SB_T (see
;; editors/test/fixtures.sh: peek.c, ring.c and what `sb edit' makes of
;; them) and sets:
;;   SB_TEST_BACKEND  eglot or lsp (lsp-mode)
;;   SB_TEST_MODE     edits: the whole buffer by `sonicboom-edit', then lines
;;                    26..35 of ring.c through the "Edit with an instruction…"
;;                    code action; each must equal `sb edit''s output and be
;;                    undone by one undo.
;;                    held: sb-lsp --test-hold-edits (it pauses after
;;                    its first progress report until the edit is cancelled
;;                    or its document changes): cancel mid-edit, and a
;;                    buffer changed mid-edit, at a known point, after the
;;                    edit has run longer than the clients' 10 s timeout.
;;                    screen: as held, but in `emacs -nw' under tmux (run.sh),
;;                    because batch Emacs renders no mode line: the progress
;;                    as the user sees it, by `format-mode-line' and on the
;;                    terminal (tmux capture-pane).
;;                    preview: `sonicboom-preview' on (the modes above run
;;                    with it off): peek.c edited whole, its hunks shown
;;                    and nothing changed (preview); the first hunk
;;                    accepted by its key, the rest rejected: peek.first
;;                    (accept-hunk); the first rejected, the rest accepted:
;;                    peek.rest (reject-hunk); all accepted: peek.expected,
;;                    one undo restores (accept-all); the buffer edited
;;                    during the preview: nothing written (preview-stale).
;;                    peek.first and peek.rest come from diff(1).
;;                    preview-streaming (the server reports every step,
;;                    --test-report-steps): the text shown while the
;;                    model writes grows, each a prefix of sb edit's
;;                    output, and the hunks replace it at the end.
;; Prints one line per test and "N passed, N failed" (to $SB_TEST_OUT when
;; set: a terminal Emacs has no stdout of its own); exits 1 on a failure.

;;; Code:

(require 'cl-lib)
(require 'package)
;; Debian's elpa-eglot and elpa-lsp-mode (-Q skips the site startup that
;; would add them)
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(require 'sonicboom)

(defvar test-dir (getenv "SB_T"))
(defvar test-backend (or (getenv "SB_TEST_BACKEND") "eglot"))
(defvar test-mode (or (getenv "SB_TEST_MODE") "edits"))
(defvar test-wait-s 120 "A guard against a hung server, not a measurement.")

(defun test-read (name)
  (with-temp-buffer
    (insert-file-contents-literally (expand-file-name name test-dir))
    (decode-coding-region (point-min) (point-max) 'utf-8)
    (buffer-string)))

(defun test-wait (pred what)
  "Process events until PRED is non-nil; fail naming WHAT after the guard."
  (let ((until (+ (float-time) test-wait-s)))
    (while (and (not (funcall pred)) (< (float-time) until))
      (accept-process-output nil 0.02))
    (unless (funcall pred) (error "Timed out waiting for %s" what))))

(defun test-check (cond fmt &rest args)
  (unless cond (error "%s" (apply #'format fmt args))))

(defun test-text () (buffer-substring-no-properties (point-min) (point-max)))

;;;; Starting the client

(setq sonicboom-server-command
      (cond ((member test-mode '("held" "screen"))
             (list (getenv "SB_LSP") "--stdio" "--test-hold-edits"))
            ;; a report after every step: preview-streaming sees the text
            ;; grow however fast this machine writes it
            ((equal test-mode "preview")
             (list (getenv "SB_LSP") "--stdio" "--test-report-steps"))
            (t (list (getenv "SB_LSP") "--stdio")))
      sonicboom-model (getenv "SB_TEST_MODEL")
      sonicboom-preview (equal test-mode "preview")
      sonicboom-threads 2
      sonicboom-modes '(c-mode))

;; No diagnostics: both clients would start flymake, whose C backend runs
;; `make check-syntax' in the test folder and reports a failure as an error.
(cond
 ((equal test-backend "eglot")
  (setq eglot-stay-out-of '(flymake))
  (sonicboom-eglot-setup))
 (t
  (setq lsp-diagnostics-provider :none
        lsp-session-file (expand-file-name "lsp-session" test-dir)
        lsp-enabled-clients '(sonicboom)
        lsp-enable-file-watchers nil
        lsp-headerline-breadcrumb-enable nil
        lsp-restart 'ignore)
  (sonicboom-lsp-mode-setup)
  (lsp-workspace-folders-add test-dir)))

(defun test-open (name)
  "Visits NAME in the test folder, with sb-lsp serving it."
  (find-file (expand-file-name name test-dir))
  (if (equal test-backend "eglot")
      (progn
        (unless (eglot-current-server) (apply #'eglot (eglot--guess-contact)))
        (test-wait (lambda () (and (eglot-current-server)
                                   (bound-and-true-p eglot--managed-mode)))
                   "eglot to connect"))
    (lsp)
    (test-wait (lambda () (and (fboundp 'sonicboom-lsp--workspace)
                               (sonicboom-lsp--workspace)
                               (eq (lsp--workspace-status (sonicboom-lsp--workspace))
                                   'initialized)))
               "lsp-mode to connect")))

(defun test-flush-changes ()
  "Sends the client's pending didChange now (eglot waits for idle time)."
  (when (fboundp 'eglot--signal-textDocument/didChange)
    (eglot--signal-textDocument/didChange)))

(defun test-code-action (beg end title-part instruction)
  "Runs the code action whose title has TITLE-PART for BEG..END, answering
the prompt with INSTRUCTION."
  (cl-letf (((symbol-function 'read-string) (lambda (&rest _) instruction)))
    (if (equal test-backend "eglot")
        (let* ((actions (eglot-code-actions beg end "refactor.rewrite"))
               (action (cl-find-if (lambda (a) (string-match-p title-part
                                                               (plist-get a :title)))
                                   actions)))
          (test-check action "no code action titled %s in %S" title-part
                      (mapcar (lambda (a) (plist-get a :title)) actions))
          (eglot--read-execute-code-action (list action) (eglot-current-server)
                                           "refactor.rewrite"))
      (transient-mark-mode 1)
      (goto-char beg)
      (push-mark end t t)
      (let* ((actions (lsp-code-actions-at-point))
             (action (cl-find-if (lambda (a) (string-match-p title-part
                                                             (gethash "title" a)))
                                 actions)))
        (deactivate-mark)
        (test-check action "no code action titled %s" title-part)
        (lsp-execute-code-action action)))))

(defun test-region-26-35 ()
  "Lines 26..35 (1-based), as a region ending inside line 35."
  (list (save-excursion (goto-char (point-min)) (forward-line 25) (point))
        (save-excursion (goto-char (point-min)) (forward-line 34) (line-end-position))))

(defun test-wait-progress ()
  (test-wait (lambda () (string-match-p "tokens" (sonicboom-status)))
             "a progress report"))

;;;; Tests

(defun test-previewed-edit ()
  "INSTR_WHOLE on peek.c with the preview on; returns the text before."
  (test-open "peek.c")
  (let ((before (test-text)))
    (sonicboom-edit (getenv "INSTR_WHOLE"))
    (test-wait (lambda () (not (sonicboom-busy-p))) "the edit")
    (test-check (sonicboom-preview-pending) "no preview: %s" sonicboom-last-message)
    (test-check (equal (test-text) before) "the buffer changed before any hunk was accepted")
    before))

(defun test-key (keys)
  "Runs the command KEYS are bound to here, as typing them would."
  (let ((cmd (key-binding (kbd keys))))
    (test-check (commandp cmd) "%s is not bound in the preview" keys)
    (call-interactively cmd)))

(defun test-diff-new-lines ()
  "The lines diff(1) says peek.expected brings, and its hunk count."
  (with-temp-buffer
    (call-process "diff" nil t nil (expand-file-name "peek.c" test-dir)
                  (expand-file-name "peek.expected" test-dir))
    (let ((lines nil) (hunks 0))
      (dolist (l (split-string (buffer-string) "\n" t))
        (cond ((string-prefix-p "> " l) (push (substring l 2) lines))
              ((string-match-p "^[0-9]" l) (cl-incf hunks))))
      (list (nreverse lines) hunks))))

(defun test-goto-first-hunk ()
  (goto-char (car (car (sonicboom-preview-pending)))))

(defun test-preview ()
  (let* ((before (test-previewed-edit))
         (want (test-diff-new-lines))
         (pending (sonicboom-preview-pending))
         (shown (mapconcat (lambda (ov) (overlay-get ov 'after-string))
                           sonicboom-preview--hunks "")))
    (test-check (= (length pending) (nth 1 want)) "%d hunks shown, diff finds %d"
                (length pending) (nth 1 want))
    (test-check (> (nth 1 want) 1) "the fixture needs two hunks or more")
    (test-check (equal shown (mapconcat (lambda (l) (concat l "\n")) (car want) ""))
                "the new lines shown differ from diff's:\n%s" shown)
    (test-check (string-match-p "to review: C-c \\^ RET accept" sonicboom-last-message)
                "no \"to review\" message: %s" sonicboom-last-message)
    (test-key "C-c ^ K")
    (test-check (equal (test-text) before) "rejecting all changed the buffer")
    (test-check (not sonicboom-preview-mode) "the preview is still on after rejecting all")
    (format "preview: %d hunks shown under their old lines, buffer unchanged, C-c ^ K leaves it so"
            (length pending))))

(defun test-accept-hunk ()
  (let ((before (test-previewed-edit)))
    (test-goto-first-hunk)
    (test-key "C-c ^ RET")
    (test-key "C-c ^ K")
    (test-check (equal (test-text) (test-read "peek.first"))
                "buffer differs from peek.c with the first hunk only:\n%s" (test-text))
    (undo-boundary)
    (undo)
    (test-check (equal (test-text) before) "one undo did not restore the buffer")
    "accept-hunk: C-c ^ RET on the first hunk, the rest rejected: the first hunk only, one undo"))

(defun test-reject-hunk ()
  (let ((before (test-previewed-edit)))
    (test-goto-first-hunk)
    (test-key "C-c ^ k")
    (test-check (equal (test-text) before) "rejecting a hunk changed the buffer")
    (test-key "C-c ^ a")
    (test-check (equal (test-text) (test-read "peek.rest"))
                "buffer differs from the edit without its first hunk:\n%s" (test-text))
    "reject-hunk: C-c ^ k on the first hunk, the rest accepted: all but the first hunk"))

(defun test-accept-all ()
  (let* ((before (test-previewed-edit))
         (n (length (sonicboom-preview-pending))))
    (test-key "C-c ^ a")
    (test-check (equal (test-text) (test-read "peek.expected"))
                "buffer differs from sb edit:\n%s" (test-text))
    (test-check (string-match-p (format "%d of %d" n n) sonicboom-last-message)
                "no summary: %s" sonicboom-last-message)
    (undo-boundary)
    (undo)
    (test-check (equal (test-text) before) "one undo did not restore the buffer")
    "accept-all: equals sb edit, one undo restores the buffer"))

(defun test-preview-stale ()
  (test-previewed-edit)
  (goto-char (point-min))
  (insert "/* typed meanwhile */\n")
  (let ((typed (test-text)))
    (test-check (not sonicboom-preview-mode) "the preview stayed open after typing")
    (test-check (string-match-p "changed during the preview" sonicboom-last-message)
                "no message: %s" sonicboom-last-message)
    (test-check (null (key-binding (kbd "C-c ^ a"))) "the preview keys outlived it")
    (test-check (equal (test-text) typed) "the preview wrote into an edited buffer")
    "preview-stale: the buffer edited during the preview: preview closed, nothing written"))

(defvar test-partials-seen nil
  "The provisional views shown, newest first (test-preview-streaming).")

(defun test-record-partial (buffer &rest _)
  "After `sonicboom-preview-show-partial': what BUFFER shows now."
  (push (sonicboom-preview-partial buffer) test-partials-seen))

(defun test-preview-streaming ()
  "previewStreaming: the text shown while the model writes grows, each a
prefix of sb edit's output; at the end the hunks replace it."
  (test-open "peek.c")
  (let ((before (test-text))
        (expected (test-read "peek.expected"))
        (seen nil))
    (setq test-partials-seen nil)
    (advice-add 'sonicboom-preview-show-partial :after #'test-record-partial)
    (unwind-protect
        (progn
          (sonicboom-edit (getenv "INSTR_WHOLE"))
          (test-wait (lambda () (not (sonicboom-busy-p))) "the edit"))
      (advice-remove 'sonicboom-preview-show-partial #'test-record-partial))
    (setq seen (reverse test-partials-seen))
    (test-check (> (length seen) 1) "%d provisional view(s) shown while the model wrote: %s"
                (length seen) sonicboom-last-message)
    (let ((last ""))
      (dolist (text seen)
        (test-check (string-prefix-p text expected) "shown text is not a prefix of sb edit:\n%s" text)
        (test-check (string-prefix-p last text) "the shown text shrank")
        (setq last text)))
    (test-check (null (sonicboom-preview-partial)) "the provisional view outlived the edit")
    (test-check (sonicboom-preview-pending) "no hunks at the end: %s" sonicboom-last-message)
    (test-check (equal (test-text) before) "the buffer changed before any hunk was accepted")
    (test-key "C-c ^ K")
    (format "preview-streaming: %d growing provisional views, each a prefix of sb edit, then the hunks"
            (length seen))))

(defun test-screen ()
  "The terminal as tmux shows it now (a terminal Emacs under tmux)."
  (with-temp-buffer
    (call-process "tmux" nil t nil "capture-pane" "-p")
    (buffer-string)))

(defun test-mode-line ()
  "The progress in the mode line, rendered, while a held edit waits."
  (test-open "peek.c")
  (sonicboom-edit (getenv "INSTR_WHOLE"))
  (test-wait-progress)
  ;; the held server's one report: "N tokens, X tok/s, P% of drafts accepted"
  (let* ((want "[0-9]+% of drafts accepted")
         (rendered (substring-no-properties (format-mode-line mode-line-format)))
         (screen ""))
    (test-check (not (string-match-p "\\*invalid\\*" rendered))
                "the mode line renders *invalid*: %s" rendered)
    (test-check (not (string-match-p "[0-9]of drafts" rendered))
                "the mode line ate a %%: %s" rendered)
    (test-check (string-match-p want rendered)
                "the mode line lacks \"P%% of drafts accepted\": %s" rendered)
    ;; the terminal catches up with redisplay asynchronously: look again
    ;; until the guard, never a fixed wait
    (condition-case nil
        (let ((test-wait-s 10))
         (test-wait (lambda ()
                     (redisplay t)
                     (setq screen (test-screen))
                     (string-match-p want screen))
                   "the screen"))
      (error (error "The screen lacks \"P%% of drafts accepted\":\n%s" screen)))
    (test-check (not (string-match-p "\\*invalid\\*" screen))
                "the screen shows *invalid*:\n%s" screen)
    (sonicboom-cancel)
    (test-wait (lambda () (not (sonicboom-busy-p))) "the cancel")
    (string-match want rendered)
    (format "the mode line shows \"%s\", on the screen too, no *invalid*"
            (match-string 0 rendered))))

(defun test-whole-buffer ()
  (test-open "peek.c")
  (let ((before (test-text)) (seen-progress nil))
    (sonicboom-edit (getenv "INSTR_WHOLE"))
    (test-check (sonicboom-busy-p) "no edit started: %s" sonicboom-last-message)
    (test-wait (lambda ()
                 (setq seen-progress (or seen-progress
                                         (string-match-p "tokens" (sonicboom-status))))
                 (not (sonicboom-busy-p)))
               "the edit")
    (test-check (equal (test-text) (test-read "peek.expected"))
                "buffer differs from sb edit:\n%s\n(%s)" (test-text) sonicboom-last-message)
    (test-check (string-match-p "done" sonicboom-last-message) "no done message: %s"
                sonicboom-last-message)
    (test-check (not (equal before (test-text))) "the edit changed nothing")
    (undo-boundary)
    (undo)
    (test-check (equal (test-text) before) "one undo did not restore the buffer")
    (format "whole buffer by sonicboom-edit equals sb edit, one undo step%s"
            (if seen-progress ", progress shown" ""))))

(defun test-selection-by-code-action ()
  (test-open "ring.c")
  (let ((before (test-text)))
    (apply #'test-code-action (append (test-region-26-35)
                                      (list "instruction" (getenv "INSTR_MID"))))
    (test-check (sonicboom-busy-p) "the code action started no edit: %s"
                sonicboom-last-message)
    (test-wait (lambda () (not (sonicboom-busy-p))) "the edit")
    (test-check (equal (test-text) (test-read "ring.expected"))
                "buffer differs from sb edit of lines 26-35:\n%s\n(%s)" (test-text)
                sonicboom-last-message)
    (test-check (not (equal before (test-text))) "the edit changed nothing")
    (undo-boundary)
    (undo)
    (test-check (equal (test-text) before) "one undo did not restore the buffer")
    "lines 26-35 of ring.c by the free-text code action equal sb edit, one undo step"))

(defun test-cancel ()
  (test-open "peek.c")
  (let ((before (test-text)))
    (sonicboom-edit (getenv "INSTR_WHOLE"))
    (test-wait-progress)
    (sonicboom-cancel)
    (test-wait (lambda () (not (sonicboom-busy-p))) "the cancel")
    (test-check (equal (test-text) before) "the buffer changed after a cancel")
    (test-check (string-match-p "cancelled" sonicboom-last-message)
                "no cancel message: %s" sonicboom-last-message)
    "cancel mid-edit: buffer unchanged"))

(defun test-changed-during-generation ()
  (test-open "ring.c")
  (apply #'sonicboom-edit (getenv "INSTR_MID") (test-region-26-35))
  (test-wait-progress)
  ;; The held edit outlives the clients' 10 s request timeout (the failure
  ;; of the README snippet this replaces): the answer must still arrive.
  (let ((until (+ (float-time) 11)))
    (while (< (float-time) until) (accept-process-output nil 0.1)))
  (test-check (sonicboom-busy-p) "the edit ended while held: %s" sonicboom-last-message)
  (goto-char (point-min))
  (insert "/* typed meanwhile */\n")
  (test-flush-changes)
  (let ((typed (test-text)))
    (test-wait (lambda () (not (sonicboom-busy-p))) "the refusal")
    (test-check (equal (test-text) typed) "something was applied to a changed buffer")
    (test-check (string-match-p "changed" sonicboom-last-message)
                "no \"changed\" message: %s" sonicboom-last-message)
    "buffer changed during generation (after 11 s): refused, nothing applied"))

(defun test-say (line)
  "Prints LINE (and a newline) where the test runner reads it."
  (let ((out (getenv "SB_TEST_OUT")))
    (if out
        (write-region (concat line "\n") nil out t 'silent)
      (princ (concat line "\n")))))

(let ((tests (pcase test-mode
               ("held" '(test-cancel test-changed-during-generation))
               ("screen" '(test-mode-line))
               ("preview" '(test-preview test-accept-hunk test-reject-hunk test-accept-all
                            test-preview-stale test-preview-streaming))
               (_ '(test-whole-buffer test-selection-by-code-action))))
      (failed 0))
  (dolist (test tests)
    (condition-case err
        (test-say (format "ok - %s: %s" test-backend (funcall test)))
      (error (cl-incf failed)
             (test-say (format "FAIL - %s %s: %s" test-backend test
                               (error-message-string err)))))
    (when (buffer-file-name) (set-buffer-modified-p nil) (kill-buffer)))
  (test-say (format "%d passed, %d failed" (- (length tests) failed) failed))
  (kill-emacs (if (= failed 0) 0 1)))

;;; test-edit.el ends here
