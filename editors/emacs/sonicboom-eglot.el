;;; sonicboom-eglot.el --- SonicBoom under eglot  -*- lexical-binding: t -*-

;;; Commentary:

;; sb-lsp as an eglot server of its own class, so that everything below
;; touches SonicBoom's connections only:
;; - the client capability that makes the server offer the free-text code
;;   action, and that action's command, run here (ask, then sonicboom.edit);
;; - sonicboom.edit from the preset code actions goes through
;;   `sonicboom--start' too (eglot's own executeCommand waits 10 s at most);
;; - $/progress (eglot 1.9 has no handler for it) to the mode line;
;; - workspace/applyEdit to the preview (sonicboom-preview.el) when
;;   `sonicboom-preview', else applied without eglot's "Proceed?" question
;;   unless `sonicboom-confirm-edits' (the user asked for the edit).
;; Eglot runs one server per major mode: in `sonicboom-modes', sb-lsp
;; replaces any other eglot server.

;;; Code:

(require 'eglot)
(require 'jsonrpc)
(require 'sonicboom)
(require 'sonicboom-preview)

(defclass sonicboom-eglot-server (eglot-lsp-server) ()
  :documentation "An eglot connection to sb-lsp.")

(defun sonicboom-eglot--backend-for (server)
  "The `sonicboom--start' backend over eglot SERVER."
  (list :request
        (lambda (params on-result on-error)
          ;; changes eglot has not sent yet go first, so the server edits
          ;; the text the user sees
          (when (fboundp 'eglot--signal-textDocument/didChange)
            (eglot--signal-textDocument/didChange))
          (jsonrpc-async-request server :workspace/executeCommand params
                                 :success-fn on-result
                                 :error-fn on-error
                                 :timeout nil))
        :notify (lambda (method params)
                  (jsonrpc-notify server (intern (concat ":" method)) params))
        :uri (lambda () (plist-get (eglot--TextDocumentIdentifier) :uri))
        :buffer-of-uri (lambda (uri) (find-buffer-visiting (eglot--uri-to-path uri)))
        :position-to-point #'eglot--lsp-position-to-point
        :version (lambda () (and (boundp 'eglot--versioned-identifier)
                                 eglot--versioned-identifier))))

(defun sonicboom-eglot--backend ()
  "The backend when the current buffer's eglot server is sb-lsp."
  (let ((server (and (bound-and-true-p eglot--managed-mode)
                     (eglot-current-server))))
    (when (cl-typep server 'sonicboom-eglot-server)
      (sonicboom-eglot--backend-for server))))

(cl-defmethod eglot-client-capabilities ((_server sonicboom-eglot-server))
  "Eglot's capabilities, and that we run sonicboom.editWithInstruction."
  (let ((caps (cl-call-next-method)))
    (plist-put caps :experimental '(:sonicboom (:instructionPrompt t)))))

(cl-defmethod eglot-execute-command
  ((server sonicboom-eglot-server) (_command (eql sonicboom.edit)) arguments)
  "Preset code actions: asynchronous, with progress and cancel."
  (sonicboom--start (sonicboom-eglot--backend-for server) (aref arguments 0)))

(cl-defmethod eglot-execute-command
  ((server sonicboom-eglot-server) (_command (eql sonicboom.editWithInstruction))
   arguments)
  "The free-text code action: ask for the instruction, then edit."
  (sonicboom--edit-with-instruction (sonicboom-eglot--backend-for server)
                                    (aref arguments 0)))

(cl-defmethod eglot-handle-notification
  ((_server sonicboom-eglot-server) (_method (eql $/progress)) &key token value)
  "Progress of our edits, to the mode line."
  (sonicboom--progress token value))

(cl-defmethod eglot-handle-request :around
  ((server sonicboom-eglot-server) (_method (eql workspace/applyEdit)) &key edit
   &allow-other-keys)
  "The edit to the preview; without one, applied without asking again."
  (if sonicboom-preview
      (sonicboom-preview-workspace-edit (sonicboom-eglot--backend-for server) edit)
    (let ((eglot-confirm-server-initiated-edits sonicboom-confirm-edits))
      (cl-call-next-method))))

(defun sonicboom-eglot--setup ()
  "Register sb-lsp for `sonicboom-modes' in `eglot-server-programs'."
  (add-hook 'sonicboom--backends #'sonicboom-eglot--backend)
  (add-to-list 'eglot-server-programs
               `(,sonicboom-modes . (sonicboom-eglot-server
                                     ,@sonicboom-server-command
                                     :initializationOptions sonicboom--init-options))))

(provide 'sonicboom-eglot)
;;; sonicboom-eglot.el ends here
