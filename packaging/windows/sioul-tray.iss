; Inno Setup 6 script: installs the one-folder bundle (dist\sioul-tray\, built on Windows by
; packaging/build-bundle) for the current user, with a Start-menu entry and an optional "start at
; login". Build it from the repository's root, once the bundle is built (the file is UTF-8 with a
; byte-order mark: without it Inno reads the French as ANSI):
;
;   iscc /DAppVersion=0.1.0 packaging\windows\sioul-tray.iss    -> dist\sioul-tray-0.1.0-setup.exe
;
; Per user (PrivilegesRequired=lowest): {autopf} is then %LOCALAPPDATA%\Programs, no administrator
; is asked, and the Run value lands in the hive of the person who runs the tray. The value is the
; one sioul_tray.tray.autostart reads and writes (HKCU\...\Run, "sioul-tray"), so "Start at login"
; in the tray's menu and this task are one setting; tests/packaging checks that they agree.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif

[Setup]
AppId=org.sioul.tray
AppName=sioul-tray
AppVersion={#AppVersion}
AppVerName=sioul-tray {#AppVersion}
AppPublisher=The Sioul developers
AppPublisherURL=https://github.com/sioul/sioul-tray
DefaultDirName={autopf}\sioul-tray
DefaultGroupName=sioul-tray
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
SourceDir=..\..
OutputDir=dist
OutputBaseFilename=sioul-tray-{#AppVersion}-setup
SetupIconFile=packaging\windows\sioul-tray.ico
UninstallDisplayIcon={app}\sioul-tray-gui.exe
UninstallDisplayName=sioul-tray
WizardStyle=modern
Compression=lzma2/max
SolidCompression=yes
; A running tray is asked to quit (it closes its claims on the session-end message) before its
; files are replaced or removed.
CloseApplications=yes
RestartApplications=no

[Languages]
Name: "en"; MessagesFile: "compiler:Default.isl"
Name: "fr"; MessagesFile: "compiler:Languages\French.isl"

[CustomMessages]
en.StartAtLogin=Start sioul-tray when I log in
fr.StartAtLogin=Démarrer sioul-tray à l'ouverture de session
en.StartNow=Start sioul-tray now
fr.StartNow=Démarrer sioul-tray maintenant
en.Comment=Keeps Sioul's medicines and invoices on one computer at a time
fr.Comment=Garde les médicaments et les factures de Sioul sur un seul ordinateur à la fois

[Tasks]
Name: "startatlogin"; Description: "{cm:StartAtLogin}"

[Files]
Source: "dist\sioul-tray\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
; The windowed program: no console window. AppUserModelID: notifications name the app by it.
Name: "{autoprograms}\sioul-tray"; Filename: "{app}\sioul-tray-gui.exe"; Comment: "{cm:Comment}"; AppUserModelID: "org.sioul.tray"

[Registry]
Root: HKCU; Subkey: "Software\Microsoft\Windows\CurrentVersion\Run"; ValueType: string; ValueName: "sioul-tray"; ValueData: """{app}\sioul-tray-gui.exe"""; Flags: uninsdeletevalue; Tasks: startatlogin

[Run]
Filename: "{app}\sioul-tray-gui.exe"; Description: "{cm:StartNow}"; Flags: nowait postinstall skipifsilent

[Code]
// The tray's own "Start at login" may have written the value without the task: the uninstaller
// removes it in every case, so that Windows does not try to start a program that is gone.
procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
begin
  if CurUninstallStep = usUninstall then
    RegDeleteValue(HKEY_CURRENT_USER, 'Software\Microsoft\Windows\CurrentVersion\Run', 'sioul-tray');
end;
