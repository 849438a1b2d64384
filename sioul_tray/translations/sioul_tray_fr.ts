<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr">
<context>
    <name>App</name>
    <message>
        <location filename="../tray/app.py" line="286"/>
        <source>Make invoices here</source>
        <translation>Faire les factures ici</translation>
    </message>
    <message>
        <location filename="../tray/listing.py" line="194"/>
        <source>Treat {computer} as gone for good (given away, reinstalled, broken)?

Your computers stop waiting for it: they keep medicines and make invoices without hearing from it. If {computer} comes back, it takes part again.</source>
        <translation>Considérer {computer} comme parti pour de bon (donné, réinstallé, en panne) ?

Vos ordinateurs cessent de l’attendre : ils gardent les médicaments et font les factures sans nouvelles de lui. Si {computer} revient, il reprend sa place.</translation>
    </message>
    <message>
        <location filename="../tray/listing.py" line="200"/>
        <source>For invoices it cannot count: {computer} may be numbering them on this computer&apos;s close, cut off from the sync, for as long as it runs. Start {computer} for a minute with its sync running to end the wait.</source>
        <translation>Pour les factures, elle ne peut pas compter : {computer} les numérote peut-être sur la fermeture de cet ordinateur, coupé de la synchronisation, aussi longtemps qu’il tourne. Démarrez {computer} une minute avec sa synchronisation pour mettre fin à l’attente.</translation>
    </message>
    <message>
        <location filename="../tray/listing.py" line="206"/>
        <source>For invoices it counts from {time}: until then {computer} may still be numbering them, cut off from the sync.</source>
        <translation>Pour les factures, elle compte à partir de {time} : jusque-là {computer} peut encore les numéroter, coupé de la synchronisation.</translation>
    </message>
    <message>
        <location filename="../tray/listing.py" line="209"/>
        <source>{computer} is gone for good</source>
        <translation>{computer} est parti pour de bon</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="475"/>
        <source>none works here: counting from the session start</source>
        <translation>aucune ne fonctionne ici : décompte depuis le début de la session</translation>
    </message>
    <message>
        <location filename="../tray/aboutbox.py" line="24"/>
        <source>The tray is not running: start sioul-tray to see what it uses.</source>
        <translation>sioul-tray n’est pas lancé : lancez-le pour voir ce qu’il utilise.</translation>
    </message>
    <message>
        <location filename="../tray/aboutbox.py" line="29"/>
        <source>About sioul-tray</source>
        <translation>À propos de sioul-tray</translation>
    </message>
    <message>
        <location filename="../tray/answers.py" line="168"/>
        <source>Closed: {parts}, but only until the tray quits: {path} cannot be written ({error})</source>
        <translation>Fermé : {parts}, mais seulement jusqu’à ce que l’icône quitte : impossible d’écrire {path} ({error})</translation>
    </message>
    <message>
        <location filename="../tray/answers.py" line="182"/>
        <source>{path} cannot be written ({error}): where it still lists {parts} as closed, the tray closes them again when it starts</source>
        <translation>impossible d’écrire {path} ({error}) : s’il indique encore {parts} comme fermé, l’icône les ferme de nouveau à son prochain lancement</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="761"/>
        <source>Sleep and wake from: {source}</source>
        <translation>Veille et réveil lus par : {source}</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="764"/>
        <source>Sync tool: {tool}</source>
        <translation>Outil de synchronisation : {tool}</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="653"/>
        <source>Syncthing, asked to send each claim at once; the last request failed: {problem}</source>
        <translation>Syncthing, à qui chaque réservation est confiée aussitôt écrite ; la dernière demande a échoué : {problem}</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="278"/>
        <source>{command} did not work:

{error}</source>
        <translation>« {command} » n’a pas abouti :

{error}</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="293"/>
        <source>{path} cannot be written ({error}): the parts reopen until the tray quits, and are closed again when it starts</source>
        <translation>{path} ne peut pas être écrit ({error}) : les parties sont rouvertes jusqu’à ce que le tray quitte, et refermées à son prochain démarrage</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="326"/>
        <location filename="../tray/app.py" line="384"/>
        <source>Quit sioul-tray</source>
        <translation>Quitter sioul-tray</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="345"/>
        <source>No file manager opened the sharing folder. It is:

{path}</source>
        <translation>Aucun gestionnaire de fichiers n’a ouvert le dossier de partage. Il se trouve ici :

{path}</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="386"/>
        <source>Make them here, then quit</source>
        <translation>Les faire ici, puis quitter</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="441"/>
        <source>its window ended with an error</source>
        <translation>sa fenêtre s’est terminée sur une erreur</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="444"/>
        <source>The sharing folder was not changed: {error}

sioul-tray keeps using {folder}.</source>
        <translation>Le dossier de partage n’a pas changé : {error}

sioul-tray continue d’utiliser {folder}.</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="477"/>
        <source>sioul-tray {version}

Keeps Sioul&apos;s medicines and invoices on one computer at a time.

This computer: {name} (id {computer})
Sharing folder: {folder}
Idle time from: {idle}</source>
        <translation>sioul-tray {version}

Garde les médicaments et les factures de Sioul sur un seul ordinateur à la fois.

Cet ordinateur : {name} (identifiant {computer})
Dossier de partage : {folder}
Inactivité lue par : {idle}</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="494"/>
        <source>How it works, and what each line means: {docs}</source>
        <translation>Comment cela marche, et ce que dit chaque ligne : {docs}</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="587"/>
        <source>sioul-tray is not running: it needs a sharing folder. While it does not run, this computer reminds no medicines and numbers no invoices. Start sioul-tray again to choose the folder.</source>
        <translation>sioul-tray ne tourne pas : il lui faut un dossier de partage. Tant qu’il ne tourne pas, cet ordinateur ne rappelle aucun médicament et ne numérote aucune facture. Relancez sioul-tray pour choisir le dossier.</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="655"/>
        <source>Syncthing, asked to send each claim at once</source>
        <translation>Syncthing, à qui chaque réservation est confiée aussitôt écrite</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="658"/>
        <source>none found; the sync tool sends the claims when it notices them</source>
        <translation>aucun trouvé ; l’outil de synchronisation envoie les réservations quand il les remarque</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="659"/>
        <source>{tool}, found; it sends the claims when it notices them</source>
        <translation>{tool}, trouvé ; il envoie les réservations quand il les remarque</translation>
    </message>
    <message>
        <location filename="../tray/answers.py" line="81"/>
        <location filename="../tray/app.py" line="667"/>
        <location filename="../tray/copied.py" line="66"/>
        <source>sioul-tray: {error}</source>
        <translation>sioul-tray : {error}</translation>
    </message>
    <message>
        <location filename="../tray/answers.py" line="150"/>
        <source>Invoices are taken here; this computer starts once every other one has seen it.</source>
        <translation>Les factures sont prises ici ; cet ordinateur commence dès que tous les autres l’ont vu.</translation>
    </message>
    <message>
        <location filename="../tray/answers.py" line="156"/>
        <source>{computer} is declared gone for good.</source>
        <translation>{computer} est déclaré parti pour de bon.</translation>
    </message>
    <message>
        <location filename="../tray/answers.py" line="166"/>
        <source>Closed: {parts} (until `sioul-tray renew`)</source>
        <translation>Fermé : {parts} (jusqu’à `sioul-tray renew`)</translation>
    </message>
    <message>
        <location filename="../tray/answers.py" line="76"/>
        <source>sioul-tray: the running tray cannot do {request}</source>
        <translation>sioul-tray : l’icône en cours ne sait pas faire {request}</translation>
    </message>
    <message>
        <location filename="../tray/display.py" line="24"/>
        <source>sioul-tray: no display here; use the command line (sioul-tray --help)</source>
        <translation>sioul-tray : pas d’affichage ici ; utilisez la ligne de commande (sioul-tray --help)</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="707"/>
        <source>sioul-tray: already running</source>
        <translation>sioul-tray : déjà lancé</translation>
    </message>
    <message>
        <location filename="../tray/single.py" line="49"/>
        <source>sioul-tray: the running tray did not understand the request</source>
        <translation>sioul-tray : l’icône en cours n’a pas compris la demande</translation>
    </message>
    <message>
        <location filename="../tray/standin.py" line="34"/>
        <source>This desktop shows no tray icons, so sioul-tray shows itself here. On GNOME, the “AppIndicator and KStatusNotifierItem Support” extension adds a tray; sioul-tray moves there as soon as one appears.</source>
        <translation>Ce bureau n’affiche pas d’icônes de zone de notification : sioul-tray se montre donc ici. Sous GNOME, l’extension « AppIndicator and KStatusNotifierItem Support » en ajoute une ; sioul-tray s’y installe dès qu’elle apparaît.</translation>
    </message>
    <message>
        <location filename="../desktop/sleep.py" line="175"/>
        <source>logind PrepareForSleep, {delay} s to close the claims</source>
        <translation>logind PrepareForSleep, {delay} s pour fermer les réservations</translation>
    </message>
    <message>
        <location filename="../desktop/sleep.py" line="182"/>
        <source>none: a gap in the clock between two renewals is taken as a wake</source>
        <translation>aucune : un saut de l’horloge entre deux renouvellements compte comme un réveil</translation>
    </message>
    <message>
        <location filename="../tray/copied.py" line="26"/>
        <location filename="../tray/copied.py" line="71"/>
        <source>sioul-tray was copied here</source>
        <translation>sioul-tray a été copié ici</translation>
    </message>
    <message>
        <location filename="../tray/copied.py" line="27"/>
        <source>This sioul-tray was copied from another computer: {name}.</source>
        <translation>Ce sioul-tray a été copié depuis un autre ordinateur : {name}.</translation>
    </message>
    <message>
        <location filename="../tray/copied.py" line="32"/>
        <source>Until you say which computer this is, it keeps no medicines and no invoices. If {name} still runs, choose “This is another computer”.</source>
        <translation>Tant que vous n’avez pas dit quel ordinateur est celui-ci, il ne garde ni les médicaments ni les factures. Si {name} fonctionne encore, choisissez «&#xa0;C’est un autre ordinateur&#xa0;».</translation>
    </message>
    <message>
        <location filename="../tray/copied.py" line="36"/>
        <source>This is another computer</source>
        <translation>C’est un autre ordinateur</translation>
    </message>
    <message>
        <location filename="../tray/copied.py" line="40"/>
        <source>This one replaces {name} for good</source>
        <translation>Celui-ci remplace {name} pour de bon</translation>
    </message>
    <message>
        <location filename="../tray/app.py" line="387"/>
        <location filename="../tray/copied.py" line="44"/>
        <source>Quit</source>
        <translation>Quitter</translation>
    </message>
    <message>
        <location filename="../tray/copied.py" line="73"/>
        <source>{name} counts as gone for invoices from {time}: until then it may still be numbering them, cut off from the sync.</source>
        <translation>{name} compte comme parti pour les factures à partir de {time} : jusque-là, il peut encore les numéroter, coupé de la synchronisation.</translation>
    </message>
    <message>
        <location filename="../tray/driver.py" line="326"/>
        <source>the mark came {late:.0f} s after the asking command gave up waiting: not taken</source>
        <translation>la marque est arrivée {late:.0f} s après que la commande a cessé d’attendre : non prise</translation>
    </message>
    <message>
        <location filename="../tray/driver.py" line="330"/>
        <source>this computer does not act on {part} under {token} now: the records made after the last mark are void</source>
        <translation>cet ordinateur n’agit pas sur {part} sous {token} en ce moment : les enregistrements faits après la dernière marque sont nuls</translation>
    </message>
    <message>
        <location filename="../tray/driver.py" line="336"/>
        <source>{wrote} is below the mark this computer&apos;s claim carries ({carried})</source>
        <translation>{wrote} est en dessous de la marque que porte la réservation de cet ordinateur ({carried})</translation>
    </message>
    <message>
        <location filename="../tray/driver.py" line="342"/>
        <location filename="../tray/driver.py" line="359"/>
        <source>the mark could not be written: {error}</source>
        <translation>la marque n’a pas pu être écrite : {error}</translation>
    </message>
</context>
<context>
    <name>CommandLine</name>
    <message>
        <location filename="../commands.py" line="33"/>
        <source>Medicines</source>
        <translation>Médicaments</translation>
    </message>
    <message>
        <location filename="../commands.py" line="33"/>
        <source>Invoices</source>
        <translation>Factures</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="35"/>
        <source>sioul-tray: {error} (see sioul-tray --help)</source>
        <translation>sioul-tray : {error} (voir sioul-tray --help)</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="47"/>
        <source>Keeps Sioul&apos;s medicines and invoices on one computer at a time. With no command, starts the tray.</source>
        <translation>Garde les médicaments et les factures de Sioul sur un seul ordinateur à la fois. Sans commande, lance l’icône de la barre des tâches.</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="56"/>
        <source>the language to show (fr, en); by default SIOUL_TRAY_LANG, else the system&apos;s</source>
        <translation>la langue à afficher (fr, en) ; par défaut SIOUL_TRAY_LANG, sinon celle du système</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="63"/>
        <source>the folder that holds this installation&apos;s settings and state; by default SIOUL_TRAY_HOME, else the system&apos;s</source>
        <translation>le dossier qui garde les réglages et l&apos;état de cette installation ; par défaut SIOUL_TRAY_HOME, sinon celui du système</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="75"/>
        <location filename="../may.py" line="75"/>
        <source>print JSON</source>
        <translation>écrire du JSON</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="78"/>
        <source>create or join the sharing folder, name this computer</source>
        <translation>créer ou rejoindre le dossier de partage, nommer cet ordinateur</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="80"/>
        <source>the synced sharing folder</source>
        <translation>le dossier de partage synchronisé</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="84"/>
        <source>the name the other computers show for this one (default: its host&apos;s)</source>
        <translation>le nom que les autres ordinateurs affichent pour celui-ci (par défaut : celui de la machine)</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="88"/>
        <source>who keeps each part, as read now, without claiming it</source>
        <translation>qui tient chaque partie, lu maintenant, sans la réserver</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="95"/>
        <source>every claim in the folder, and every file that does not read</source>
        <translation>toutes les réservations du dossier, et chaque fichier illisible</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="102"/>
        <source>the last changes of hands this computer&apos;s tray saw, with when</source>
        <translation>les derniers changements de main vus par le sioul-tray de cet ordinateur, avec leur heure</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="106"/>
        <source>&quot;Make invoices here&quot;: take a part on purpose</source>
        <translation>« Faire les factures ici » : prendre une partie exprès</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="110"/>
        <source>close this computer&apos;s claims (all parts by default)</source>
        <translation>fermer les réservations de cet ordinateur (toutes les parties par défaut)</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="116"/>
        <source>renew this computer&apos;s claims once (for a timer on a server)</source>
        <translation>renouveler une fois les réservations de cet ordinateur (pour un minuteur sur un serveur)</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="121"/>
        <source>declare a computer gone for good (given away, broken)</source>
        <translation>déclarer un ordinateur parti pour de bon (donné, en panne)</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="123"/>
        <source>its id, as `sioul-tray claims` lists it</source>
        <translation>son identifiant, tel que `sioul-tray claims` l’affiche</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="131"/>
        <source>say which computer a copied installation runs on (it waits till then)</source>
        <translation>dire sur quel ordinateur tourne une installation copiée (elle attend jusque-là)</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="139"/>
        <source>new: this is another computer; gone: it replaces the one it was copied from for good</source>
        <translation>new : c’est un autre ordinateur ; gone : il remplace pour de bon celui d’où il a été copié</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="146"/>
        <source>Sioul&apos;s records here reach N: the running tray carries the mark in its claim while it acts under the token (exit 1: it does not, and records past the last mark are void)</source>
        <translation>les enregistrements de Sioul ici atteignent N : l’icône en cours porte la marque dans sa réservation tant qu’elle agit sous le jeton (sortie 1 : elle n’agit pas, et les enregistrements après la dernière marque sont nuls)</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="156"/>
        <source>the verdict&apos;s token the records were made under (default: $SIOUL_LEASE_TOKEN, which `sioul-tray run` sets)</source>
        <translation>le jeton du verdict sous lequel les enregistrements ont été faits (par défaut : $SIOUL_LEASE_TOKEN, que `sioul-tray run` définit)</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="164"/>
        <source>the person confirms that this computer&apos;s records count up to N, where its mark is unknown after its state was lost (no token; never lowers a mark already carried)</source>
        <translation>la personne confirme que les enregistrements de cet ordinateur comptent jusqu’à N, là où sa marque est inconnue après la perte de son état (sans jeton ; n’abaisse jamais une marque déjà portée)</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="171"/>
        <source>the Computers window of the tray running here</source>
        <translation>la fenêtre « Ordinateurs » de l’icône lancée ici</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="176"/>
        <source>the About box of the tray running here</source>
        <translation>la fenêtre « À propos » de l’icône lancée ici</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="181"/>
        <source>the window to choose another sharing folder (exit 0: closed; the tray follows the folder saved)</source>
        <translation>la fenêtre pour choisir un autre dossier de partage (code 0 : fermée ; l’icône suit le dossier enregistré)</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="189"/>
        <source>the tray on a temporary folder with two simulated computers</source>
        <translation>l’icône sur un dossier temporaire avec deux ordinateurs simulés</translation>
    </message>
    <message>
        <location filename="../cliparser.py" line="211"/>
        <source>{text} is not a whole number from 0 to {top}</source>
        <translation>{text} n’est pas un nombre entier de 0 à {top}</translation>
    </message>
    <message>
        <location filename="../cli.py" line="108"/>
        <source>sioul-tray: interrupted</source>
        <translation>sioul-tray : interrompu</translation>
    </message>
    <message>
        <location filename="../cli.py" line="136"/>
        <source>wrote: give --token, the verdict&apos;s token the records were made under (`sioul-tray run` sets SIOUL_LEASE_TOKEN)</source>
        <translation>wrote : donnez --token, le jeton du verdict sous lequel les enregistrements ont été faits (`sioul-tray run` définit SIOUL_LEASE_TOKEN)</translation>
    </message>
    <message>
        <location filename="../cli.py" line="180"/>
        <source>sioul-tray: {error}</source>
        <translation>sioul-tray : {error}</translation>
    </message>
    <message>
        <location filename="../cli.py" line="192"/>
        <source>sioul-tray: this build has no tray; use the commands (sioul-tray --help)</source>
        <translation>sioul-tray : cette version n’a pas d’icône ; utilisez les commandes (sioul-tray --help)</translation>
    </message>
    <message>
        <location filename="../commands.py" line="49"/>
        <source>Passphrase for the sharing folder: </source>
        <translation>Phrase secrète du dossier de partage : </translation>
    </message>
    <message>
        <location filename="../commands.py" line="52"/>
        <source>The same passphrase again: </source>
        <translation>La même phrase secrète, encore : </translation>
    </message>
    <message>
        <location filename="../commands.py" line="92"/>
        <source>The other computers show this one as {name}.</source>
        <translation>Les autres ordinateurs affichent celui-ci sous le nom {name}.</translation>
    </message>
    <message>
        <location filename="../commands.py" line="120"/>
        <source>Created the sharing folder {folder}; this computer is {computer}.</source>
        <translation>Dossier de partage {folder} créé ; cet ordinateur est {computer}.</translation>
    </message>
    <message>
        <location filename="../commands.py" line="124"/>
        <source>On each other computer, run: sioul-tray setup --share &lt;its copy of it&gt;</source>
        <translation>Sur chacun des autres ordinateurs, lancez : sioul-tray setup --share &lt;sa copie du dossier&gt;</translation>
    </message>
    <message>
        <location filename="../commands.py" line="129"/>
        <source>Joined the sharing folder {folder}; this computer is {computer}.</source>
        <translation>Dossier de partage {folder} rejoint ; cet ordinateur est {computer}.</translation>
    </message>
    <message>
        <location filename="../commands.py" line="173"/>
        <source>Could not close this computer&apos;s claims in {folder}: {error}</source>
        <translation>Impossible de fermer les réservations de cet ordinateur dans {folder} : {error}</translation>
    </message>
    <message>
        <location filename="../commands.py" line="176"/>
        <source>Closed this computer&apos;s claims in {folder}.</source>
        <translation>Réservations de cet ordinateur fermées dans {folder}.</translation>
    </message>
    <message numerus="yes">
        <location filename="../commands.py" line="271"/>
        <source>  the clock of {computer} is %n min ahead of this one</source>
        <translation>
            <numerusform>  l’horloge de {computer} a %n min d’avance sur celle-ci</numerusform>
            <numerusform>  l’horloge de {computer} a %n min d’avance sur celle-ci</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../commands.py" line="277"/>
        <source>(no tray runs here: whether this computer acts is known to the tray only)</source>
        <translation>(aucune icône ne tourne ici : seule l’icône sait si cet ordinateur agit)</translation>
    </message>
    <message>
        <location filename="../commands.py" line="302"/>
        <source>No change of hands seen here yet.</source>
        <translation>Aucun changement de main vu ici pour l’instant.</translation>
    </message>
    <message>
        <location filename="../commands.py" line="322"/>
        <source>{part}:</source>
        <translation>{part} :</translation>
    </message>
    <message>
        <location filename="../commands.py" line="324"/>
        <source>  no claims</source>
        <translation>  aucune réservation</translation>
    </message>
    <message>
        <location filename="../commands.py" line="328"/>
        <source>{name} (this computer)</source>
        <translation>{name} (cet ordinateur)</translation>
    </message>
    <message>
        <location filename="../commands.py" line="330"/>
        <source>closed</source>
        <translation>fermée</translation>
    </message>
    <message>
        <location filename="../commands.py" line="330"/>
        <source>open</source>
        <translation>ouverte</translation>
    </message>
    <message>
        <location filename="../commands.py" line="331"/>
        <source>renewed {ago}</source>
        <translation>renouvelée {ago}</translation>
    </message>
    <message>
        <location filename="../commands.py" line="333"/>
        <source>used {ago}</source>
        <translation>utilisé {ago}</translation>
    </message>
    <message>
        <location filename="../commands.py" line="335"/>
        <source>never used</source>
        <translation>jamais utilisé</translation>
    </message>
    <message>
        <location filename="../commands.py" line="338"/>
        <source>taken {ago}</source>
        <translation>prise {ago}</translation>
    </message>
    <message>
        <location filename="../commands.py" line="340"/>
        <source>sees {computer}</source>
        <translation>voit {computer}</translation>
    </message>
    <message>
        <location filename="../commands.py" line="341"/>
        <source>wrote {n}</source>
        <translation>écrit {n}</translation>
    </message>
    <message>
        <location filename="../commands.py" line="342"/>
        <source>  {computer}: {facts}</source>
        <translation>  {computer} : {facts}</translation>
    </message>
    <message>
        <location filename="../commands.py" line="347"/>
        <source>  not read: {file}: {reason}</source>
        <translation>  illisible : {file} : {reason}</translation>
    </message>
    <message>
        <location filename="../commands.py" line="366"/>
        <source>Invoices are kept here now, but no tray runs on this computer: no computer numbers them until sioul-tray starts here (it then numbers them once it has kept them for 2 minutes and every other computer has seen it).</source>
        <translation>Les factures sont tenues ici maintenant, mais aucun tray ne tourne sur cet ordinateur : aucun ordinateur ne les numérote tant que sioul-tray n’y a pas démarré (il les numérote ensuite quand il les a tenues 2 minutes et que tous les autres ordinateurs l’ont vu).</translation>
    </message>
    <message>
        <location filename="../commands.py" line="372"/>
        <source>sioul-tray: warning: no tray runs here, so no computer numbers invoices now: start sioul-tray here, or choose “Make invoices here” on another computer</source>
        <translation>sioul-tray : attention : aucun tray ne tourne ici, donc aucun ordinateur ne numérote les factures maintenant : démarrez sioul-tray ici, ou choisissez « Faire les factures ici » sur un autre ordinateur</translation>
    </message>
    <message>
        <location filename="../commands.py" line="381"/>
        <source>Waiting for: {computers}</source>
        <translation>En attente de : {computers}</translation>
    </message>
    <message>
        <location filename="../commands.py" line="400"/>
        <source>Closed: {parts}</source>
        <translation>Fermé : {parts}</translation>
    </message>
    <message>
        <location filename="../commands.py" line="410"/>
        <source>sioul-tray: warning: {problem}</source>
        <translation>sioul-tray : attention : {problem}</translation>
    </message>
    <message>
        <location filename="../commands.py" line="438"/>
        <source>{computer} is declared gone for good; it counts again if it comes back.</source>
        <translation>{computer} est déclaré parti pour de bon ; il comptera de nouveau s’il revient.</translation>
    </message>
    <message>
        <location filename="../commands.py" line="442"/>
        <source>For invoices it cannot count: {computer} may be numbering them on this computer&apos;s close, cut off from the sync, for as long as it runs. Start {computer} for a minute with its sync running to end the wait.</source>
        <translation>Pour les factures, elle ne peut pas compter : {computer} les numérote peut-être sur la fermeture de cet ordinateur, coupé de la synchronisation, aussi longtemps qu’il tourne. Démarrez {computer} une minute avec sa synchronisation pour mettre fin à l’attente.</translation>
    </message>
    <message>
        <location filename="../commands.py" line="449"/>
        <source>For invoices it counts from {time}: until then {computer} may still be numbering them, cut off from the sync.</source>
        <translation>Pour les factures, elle compte à partir de {time} : jusque-là {computer} peut encore les numéroter, coupé de la synchronisation.</translation>
    </message>
    <message>
        <location filename="../commands.py" line="459"/>
        <source>This computer&apos;s claims are now {new}&apos;s; {old}&apos;s stay with the computer they were made on.</source>
        <translation>Les réservations de cet ordinateur sont désormais celles de {new} ; celles de {old} restent à l’ordinateur où elles ont été faites.</translation>
    </message>
    <message>
        <location filename="../commands.py" line="465"/>
        <source>No claim of {computer} was ever read here: nothing holds back.</source>
        <translation>Aucune réservation de {computer} n’a jamais été lue ici : rien ne retient.</translation>
    </message>
    <message>
        <location filename="../commands.py" line="482"/>
        <source>sioul-tray: no tray runs here, so nothing acts on {part} under {token}: the mark is not taken, and the records made after the last one are void</source>
        <translation>sioul-tray : aucune icône ne tourne ici, donc rien n’agit sur {part} sous {token} : la marque n’est pas prise, et les enregistrements faits après la dernière sont nuls</translation>
    </message>
    <message>
        <location filename="../may.py" line="45"/>
        <source>the command&apos;s own exit code, unchanged (above 122 too)</source>
        <translation>le code de sortie de la commande elle-même, inchangé (au-dessus de 122 aussi)</translation>
    </message>
    <message>
        <location filename="../may.py" line="46"/>
        <source>the verdict said no: the command never started</source>
        <translation>le verdict a dit non : la commande n’a pas été lancée</translation>
    </message>
    <message>
        <location filename="../may.py" line="47"/>
        <source>the verdict was lost while the command ran: it was stopped</source>
        <translation>le verdict a été perdu pendant que la commande tournait : elle a été arrêtée</translation>
    </message>
    <message>
        <location filename="../may.py" line="48"/>
        <source>sioul-tray run itself failed (a usage error, for one)</source>
        <translation>sioul-tray run lui-même a échoué (une erreur d’utilisation, par exemple)</translation>
    </message>
    <message>
        <location filename="../may.py" line="49"/>
        <source>the command was found but could not be started</source>
        <translation>la commande a été trouvée mais n’a pas pu être lancée</translation>
    </message>
    <message>
        <location filename="../may.py" line="50"/>
        <source>the command was not found</source>
        <translation>la commande est introuvable</translation>
    </message>
    <message>
        <location filename="../may.py" line="51"/>
        <source>the command was ended by signal N (143: SIGTERM)</source>
        <translation>la commande a été arrêtée par le signal N (143 : SIGTERM)</translation>
    </message>
    <message>
        <location filename="../may.py" line="72"/>
        <source>exit 0 when this computer may act on the part now (Sioul&apos;s check)</source>
        <translation>code 0 quand cet ordinateur peut agir maintenant sur la partie (la vérification de Sioul)</translation>
    </message>
    <message>
        <location filename="../may.py" line="82"/>
        <source>run a command only while this computer acts on the part</source>
        <translation>lancer une commande seulement tant que cet ordinateur agit sur la partie</translation>
    </message>
    <message>
        <location filename="../may.py" line="98"/>
        <source>exit codes:</source>
        <translation>codes de sortie :</translation>
    </message>
    <message>
        <location filename="../may.py" line="115"/>
        <source>wait this long for the verdict to say yes (default: not at all)</source>
        <translation>attendre jusqu’à ce délai que le verdict dise oui (par défaut : pas du tout)</translation>
    </message>
    <message>
        <location filename="../may.py" line="126"/>
        <source>{text} is not a number of seconds</source>
        <translation>{text} n’est pas un nombre de secondes</translation>
    </message>
    <message>
        <location filename="../may.py" line="152"/>
        <source>no tray runs here: only a running tray knows whether this computer acts</source>
        <translation>aucune icône ne tourne ici : seule l’icône en marche sait si cet ordinateur agit</translation>
    </message>
    <message>
        <location filename="../may.py" line="154"/>
        <source>{path} does not read as the tray writes it</source>
        <translation>{path} ne se lit pas comme l’icône l’écrit</translation>
    </message>
    <message>
        <location filename="../may.py" line="156"/>
        <source>the tray running here is older than this command: quit it and start it again</source>
        <translation>l’icône qui tourne ici est plus ancienne que cette commande : quittez-la et relancez-la</translation>
    </message>
    <message>
        <location filename="../may.py" line="158"/>
        <source>the tray has stopped (it quit, or the computer slept)</source>
        <translation>l’icône s’est arrêtée (elle a quitté, ou l’ordinateur s’est mis en veille)</translation>
    </message>
    <message>
        <location filename="../may.py" line="159"/>
        <source>the tray that wrote {path} no longer runs</source>
        <translation>l’icône qui a écrit {path} ne tourne plus</translation>
    </message>
    <message>
        <location filename="../may.py" line="160"/>
        <source>{path} was written before this computer last started</source>
        <translation>{path} a été écrit avant le dernier démarrage de cet ordinateur</translation>
    </message>
    <message>
        <location filename="../may.py" line="162"/>
        <source>the tray has not renewed its verdict in time (is it stuck?)</source>
        <translation>l’icône n’a pas renouvelé son verdict à temps (est-elle bloquée ?)</translation>
    </message>
    <message>
        <location filename="../may.py" line="165"/>
        <source>{path} or its folder belongs to another user, or is a link: not trusted</source>
        <translation>{path} ou son dossier appartient à un autre utilisateur, ou est un lien : pas digne de confiance</translation>
    </message>
    <message>
        <location filename="../may.py" line="193"/>
        <source>Invoices: this computer may number them until {time}, token {token}</source>
        <translation>Factures : cet ordinateur peut les numéroter jusqu’à {time}, jeton {token}</translation>
    </message>
    <message>
        <location filename="../may.py" line="196"/>
        <source>Medicines: this computer may remind them until {time}, token {token}</source>
        <translation>Médicaments : cet ordinateur peut les rappeler jusqu’à {time}, jeton {token}</translation>
    </message>
    <message>
        <location filename="../may.py" line="204"/>
        <source>  first, the records of {computer} up to {wrote}</source>
        <translation>  d’abord, les enregistrements de {computer} jusqu’à {wrote}</translation>
    </message>
    <message>
        <location filename="../may.py" line="213"/>
        <source>sioul-tray run: give the command after --</source>
        <translation>sioul-tray run : donnez la commande après --</translation>
    </message>
    <message>
        <location filename="../may.py" line="257"/>
        <source>the part was taken again: another tenure</source>
        <translation>la partie a été reprise : un autre mandat</translation>
    </message>
    <message>
        <location filename="../may.py" line="260"/>
        <source>sioul-tray run: stopped {command}: {reason}</source>
        <translation>sioul-tray run : {command} arrêté : {reason}</translation>
    </message>
</context>
<context>
    <name>Computers</name>
    <message>
        <location filename="../tray/computers.py" line="152"/>
        <source>Computers — sioul-tray</source>
        <translation>Ordinateurs — sioul-tray</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="164"/>
        <source>Computer</source>
        <translation>Ordinateur</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="164"/>
        <source>Each computer that shares the folder</source>
        <translation>Chaque ordinateur qui partage le dossier</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="165"/>
        <source>What it reminds or numbers, as seen here</source>
        <translation>Ce qu’il rappelle ou numérote, vu d’ici</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="166"/>
        <source>Last heard</source>
        <translation>Dernières nouvelles</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="165"/>
        <source>Keeps</source>
        <translation>Tient</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="167"/>
        <source>When this computer last saw it renew its claims through the sync</source>
        <translation>Quand cet ordinateur l’a vu renouveler ses réservations par la synchronisation pour la dernière fois</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="168"/>
        <source>When someone last used it</source>
        <translation>Quand quelqu’un s’en est servi pour la dernière fois</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="169"/>
        <source>sioul-tray</source>
        <translation>sioul-tray</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="170"/>
        <source>Running; not acting: it keeps a part but does not act on it; silent: not heard for 5 minutes; or closed: quit, or asleep</source>
        <translation>En marche ; n’agit pas : il tient une partie mais n’agit pas dessus ; silencieux : pas entendu depuis 5 minutes ; ou fermé : quitté, ou en veille</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="172"/>
        <source>How far its clock is from this one&apos;s</source>
        <translation>L’écart de son horloge avec celle de cet ordinateur</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="191"/>
        <source>Treat as gone for good…</source>
        <translation>Considérer comme parti pour de bon…</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="217"/>
        <source>Lately, newest first:</source>
        <translation>Dernièrement, du plus récent au plus ancien :</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="263"/>
        <source>{name} (this computer)</source>
        <translation>{name} (cet ordinateur)</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="267"/>
        <source>not heard</source>
        <translation>sans nouvelles</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="287"/>
        <source>Files in the sharing folder that cannot be read:</source>
        <translation>Fichiers du dossier de partage illisibles :</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="289"/>
        <source>Every file in the sharing folder can be read.</source>
        <translation>Tous les fichiers du dossier de partage se lisent.</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="368"/>
        <source>silent</source>
        <translation>muet</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="369"/>
        <source>Its claims are open but were not renewed lately: sioul-tray is not running there, or its sync has stopped</source>
        <translation>Ses réservations sont ouvertes mais n’ont pas été renouvelées récemment : sioul-tray n’y tourne pas, ou sa synchronisation est arrêtée</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="374"/>
        <source>not acting</source>
        <translation>n’agit pas</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="375"/>
        <source>It keeps {parts} but does not act on them: its claims are renewed without sioul-tray running there (a timer&apos;s sioul-tray renew), or it waits for another computer</source>
        <translation>Il tient {parts} mais n’agit pas dessus : ses réservations sont renouvelées sans que sioul-tray y tourne (un sioul-tray renew lancé par un minuteur), ou il attend un autre ordinateur</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="379"/>
        <source>running</source>
        <translation>en marche</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="381"/>
        <source>closed</source>
        <translation>fermé</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="381"/>
        <source>It quit, or the computer sleeps</source>
        <translation>Il a été quitté, ou l’ordinateur est en veille</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="383"/>
        <source>closed for {parts}</source>
        <translation>fermé pour : {parts}</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="168"/>
        <source>Last used</source>
        <translation>Dernier usage</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="156"/>
        <source>The tray is not running: start sioul-tray to see the computers.</source>
        <translation>sioul-tray n’est pas lancé : lancez-le pour voir les ordinateurs.</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="172"/>
        <source>Clock</source>
        <translation>Horloge</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="212"/>
        <source>Show in the folder</source>
        <translation>Montrer dans le dossier</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="273"/>
        <source>Invoices here wait for its confirmation</source>
        <translation>Les factures attendent ici sa confirmation</translation>
    </message>
    <message>
        <location filename="../tray/listing.py" line="174"/>
        <source>Syncthing is connected to every computer sharing the folder.</source>
        <translation>Syncthing est connecté à tous les ordinateurs qui partagent le dossier.</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="390"/>
        <source>{span} ahead</source>
        <translation>{span} d’avance</translation>
    </message>
    <message>
        <location filename="../tray/computers.py" line="391"/>
        <source>{span} behind</source>
        <translation>{span} de retard</translation>
    </message>
</context>
<context>
    <name>Core</name>
    <message>
        <location filename="../files.py" line="274"/>
        <location filename="../files.py" line="311"/>
        <source>a socket</source>
        <translation>une socket</translation>
    </message>
    <message>
        <location filename="../files.py" line="282"/>
        <source>{path} belongs to another user: not trusted</source>
        <translation>{path} appartient à un autre utilisateur : pas digne de confiance</translation>
    </message>
    <message>
        <location filename="../files.py" line="305"/>
        <source>a FIFO</source>
        <translation>un tube nommé (FIFO)</translation>
    </message>
    <message>
        <location filename="../files.py" line="307"/>
        <source>a device</source>
        <translation>un périphérique</translation>
    </message>
    <message>
        <location filename="../files.py" line="309"/>
        <source>a folder</source>
        <translation>un dossier</translation>
    </message>
    <message>
        <location filename="../files.py" line="312"/>
        <source>something else</source>
        <translation>autre chose</translation>
    </message>
    <message>
        <location filename="../files.py" line="317"/>
        <source>{path} is a link, not a file: not read (remove it)</source>
        <translation>{path} est un lien, pas un fichier : non lu (supprimez-le)</translation>
    </message>
    <message>
        <location filename="../files.py" line="323"/>
        <source>{path} is {what}, not a file: not read (remove it)</source>
        <translation>{path} est {what}, pas un fichier : non lu (supprimez-le)</translation>
    </message>
    <message>
        <location filename="../files.py" line="332"/>
        <source>{path} is too large ({size} bytes, at most {cap}): not read</source>
        <translation>{path} est trop grand ({size} octets, {cap} au plus) : non lu</translation>
    </message>
    <message>
        <location filename="../files.py" line="345"/>
        <source>cannot read {path}: {error}</source>
        <translation>impossible de lire {path} : {error}</translation>
    </message>
    <message>
        <location filename="../install.py" line="128"/>
        <source>{path} holds {text}, which is not a computer id: remove that file to make a new id (this computer&apos;s claims then start anew)</source>
        <translation>{path} contient {text}, qui n’est pas un identifiant d’ordinateur : supprimez ce fichier pour en créer un nouveau (les réservations de cet ordinateur repartent alors de zéro)</translation>
    </message>
    <message>
        <location filename="../install.py" line="160"/>
        <source>{path} is damaged: remove it if this installation was made on this computer</source>
        <translation>{path} est endommagé : supprimez-le si cette installation a été faite sur cet ordinateur</translation>
    </message>
    <message>
        <location filename="../install.py" line="178"/>
        <source>this installation was copied from another computer, where its claims are {computer}&apos;s: run `sioul-tray copied new` if this is a new computer, or `sioul-tray copied gone` if it replaces that one for good</source>
        <translation>cette installation a été copiée depuis un autre ordinateur, où ses réservations sont celles de {computer} : lancez `sioul-tray copied new` si c’est un nouvel ordinateur, ou `sioul-tray copied gone` s’il remplace celui-là pour de bon</translation>
    </message>
    <message>
        <location filename="../install.py" line="228"/>
        <source>this installation was made on this computer: nothing to change (its claims are {computer}&apos;s)</source>
        <translation>cette installation a été faite sur cet ordinateur : rien à changer (ses réservations sont celles de {computer})</translation>
    </message>
    <message>
        <location filename="../install.py" line="277"/>
        <location filename="../share/seal.py" line="468"/>
        <source>{path} is damaged: not JSON</source>
        <translation>{path} est endommagé : ce n’est pas du JSON</translation>
    </message>
    <message>
        <location filename="../install.py" line="281"/>
        <source>{path} is damaged: not a table of settings</source>
        <translation>{path} est endommagé : ce n’est pas une table de réglages</translation>
    </message>
    <message>
        <location filename="../install.py" line="327"/>
        <source>{path} is damaged: the sharing folder&apos;s path holds a NUL character</source>
        <translation>{path} est endommagé : le chemin du dossier de partage contient un caractère NUL</translation>
    </message>
    <message>
        <location filename="../install.py" line="339"/>
        <source>{id} is not a folder id</source>
        <translation>{id} n’est pas un identifiant de dossier</translation>
    </message>
    <message>
        <location filename="../install.py" line="385"/>
        <source>no sharing folder is set up here: run `sioul-tray setup --share DIR`</source>
        <translation>aucun dossier de partage n’est configuré ici : lancez `sioul-tray setup --share DOSSIER`</translation>
    </message>
    <message>
        <location filename="../install.py" line="398"/>
        <source>this computer has no key for {folder}: run `sioul-tray setup --share {folder}`</source>
        <translation>cet ordinateur n’a pas de clé pour {folder} : lancez `sioul-tray setup --share {folder}`</translation>
    </message>
    <message>
        <location filename="../install.py" line="408"/>
        <source>{path} is damaged (its key is cut short or not base64): run `sioul-tray setup --share {folder}` to write it again</source>
        <translation>{path} est endommagé (sa clé est tronquée ou n’est pas en base64) : lancez `sioul-tray setup --share {folder}` pour l’écrire de nouveau</translation>
    </message>
    <message>
        <location filename="../install.py" line="425"/>
        <source>the key kept in {path} does not open {folder}: the folder was sealed again; run `sioul-tray setup --share {folder}`</source>
        <translation>la clé gardée dans {path} n’ouvre pas {folder} : le dossier a été scellé de nouveau ; lancez `sioul-tray setup --share {folder}`</translation>
    </message>
    <message>
        <location filename="../install.py" line="496"/>
        <source>another sioul-tray process (pid {pid}) writes this computer&apos;s claims; try again when it has quit</source>
        <translation>un autre processus sioul-tray (pid {pid}) écrit les réservations de cet ordinateur ; réessayez quand il aura quitté</translation>
    </message>
    <message>
        <location filename="../install.py" line="518"/>
        <source>the sharing folder {folder} is missing: deleted, moved, or on a disk that is not mounted now</source>
        <translation>le dossier de partage {folder} est absent : supprimé, déplacé, ou sur un disque qui n’est pas monté en ce moment</translation>
    </message>
    <message>
        <location filename="../install.py" line="557"/>
        <source>{folder} is on a read-only file system: this computer could not write its claims there; choose a folder it can write</source>
        <translation>{folder} est sur un système de fichiers en lecture seule : cet ordinateur ne pourrait pas y écrire ses réservations ; choisissez un dossier où il peut écrire</translation>
    </message>
    <message>
        <location filename="../install.py" line="564"/>
        <source>this user may not write in {folder}: this computer could not write its claims there</source>
        <translation>cet utilisateur n’a pas le droit d’écrire dans {folder} : cet ordinateur ne pourrait pas y écrire ses réservations</translation>
    </message>
    <message>
        <location filename="../install.py" line="586"/>
        <source>{path} is a link or another user&apos;s file, not this installation&apos;s lock: remove it (someone may have planted it)</source>
        <translation>{path} est un lien ou le fichier d’un autre utilisateur, pas le verrou de cette installation : supprimez-le (quelqu’un l’a peut-être placé là)</translation>
    </message>
    <message>
        <location filename="../install.py" line="543"/>
        <location filename="../install.py" line="615"/>
        <source>cannot make {path}: {error}</source>
        <translation>impossible de créer {path} : {error}</translation>
    </message>
    <message>
        <location filename="../install.py" line="526"/>
        <source>the sharing folder {folder} holds no {file} any more: is its disk mounted? If it was emptied, the sync brings the seal back from the other computers</source>
        <translation>le dossier de partage {folder} ne contient plus {file} : son disque est-il monté ? S’il a été vidé, la synchronisation ramène le sceau depuis les autres ordinateurs</translation>
    </message>
    <message>
        <location filename="../install.py" line="612"/>
        <source>{path} is not a folder (a link?): remove it</source>
        <translation>{path} n’est pas un dossier (un lien ?) : supprimez-le</translation>
    </message>
    <message>
        <location filename="../install.py" line="627"/>
        <source>{path} belongs to another user: it must be this user&apos;s own</source>
        <translation>{path} appartient à un autre utilisateur : il doit appartenir à cet utilisateur</translation>
    </message>
    <message>
        <location filename="../install.py" line="635"/>
        <source>{path} is open to other users and cannot be made private: {error}</source>
        <translation>{path} est ouvert aux autres utilisateurs et ne peut pas être rendu privé : {error}</translation>
    </message>
    <message>
        <location filename="../lease/codec.py" line="156"/>
        <source>not valid: {what} is not a whole number</source>
        <translation>invalide : {what} n’est pas un nombre entier</translation>
    </message>
    <message>
        <location filename="../lease/codec.py" line="158"/>
        <source>not valid: {what} is out of range</source>
        <translation>invalide : {what} est hors limites</translation>
    </message>
    <message>
        <location filename="../lease/codec.py" line="168"/>
        <source>not valid: {what} is not a computer id</source>
        <translation>invalide : {what} n’est pas un identifiant d’ordinateur</translation>
    </message>
    <message>
        <location filename="../lease/codec.py" line="179"/>
        <location filename="../lease/lease.py" line="557"/>
        <source>not valid: not a claim</source>
        <translation>invalide : ce n’est pas une réservation</translation>
    </message>
    <message>
        <location filename="../lease/codec.py" line="181"/>
        <source>not valid: fields are missing</source>
        <translation>invalide : des champs manquent</translation>
    </message>
    <message>
        <location filename="../lease/codec.py" line="186"/>
        <source>not valid: unknown part</source>
        <translation>invalide : partie inconnue</translation>
    </message>
    <message>
        <location filename="../lease/codec.py" line="188"/>
        <source>not valid: the name is not text of a sensible length</source>
        <translation>invalide : le nom n’est pas un texte de longueur raisonnable</translation>
    </message>
    <message>
        <location filename="../lease/codec.py" line="192"/>
        <source>not valid: closed is not true or false</source>
        <translation>invalide : closed n’est ni vrai ni faux</translation>
    </message>
    <message>
        <location filename="../lease/codec.py" line="194"/>
        <source>not valid: forgets is not a small table</source>
        <translation>invalide : forgets n’est pas une petite table</translation>
    </message>
    <message>
        <location filename="../lease/codec.py" line="217"/>
        <location filename="../lease/codec.py" line="272"/>
        <source>not valid: the acknowledgement is incomplete</source>
        <translation>non valide : l’accusé de réception est incomplet</translation>
    </message>
    <message>
        <location filename="../lease/codec.py" line="224"/>
        <source>not valid: acting is not true, false or null</source>
        <translation>invalide : acting n’est ni vrai, ni faux, ni null</translation>
    </message>
    <message>
        <location filename="../lease/codec.py" line="229"/>
        <source>not valid: reads does not match knows</source>
        <translation>invalide : reads ne correspond pas à knows</translation>
    </message>
    <message>
        <location filename="../lease/codec.py" line="247"/>
        <source>a forgotten computer</source>
        <translation>un ordinateur oublié</translation>
    </message>
    <message>
        <location filename="../lease/codec.py" line="247"/>
        <source>a forgotten seq</source>
        <translation>un seq oublié</translation>
    </message>
    <message>
        <location filename="../lease/codec.py" line="280"/>
        <location filename="../lease/codec.py" line="284"/>
        <location filename="../lease/codec.py" line="300"/>
        <source>not valid: {what} is not a small table</source>
        <translation>invalide : {what} n’est pas une petite table</translation>
    </message>
    <message>
        <location filename="../lease/codec.py" line="287"/>
        <source>not valid: admits does not match knows</source>
        <translation>invalide : admits ne correspond pas à knows</translation>
    </message>
    <message>
        <location filename="../lease/codec.py" line="309"/>
        <source>not valid: {what} is not a short list</source>
        <translation>invalide : {what} n’est pas une courte liste</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="44"/>
        <source>temporary file: still being written</source>
        <translation>fichier temporaire : en cours d’écriture</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="47"/>
        <source>Syncthing temporary: still syncing</source>
        <translation>fichier temporaire de Syncthing : synchronisation en cours</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="50"/>
        <source>conflicted copy made by Syncthing</source>
        <translation>copie en conflit faite par Syncthing</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="53"/>
        <source>conflicted copy made by the sync tool</source>
        <translation>copie en conflit faite par l’outil de synchronisation</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="58"/>
        <source>case conflict made by Dropbox</source>
        <translation>conflit de casse fait par Dropbox</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="63"/>
        <source>conflicted copy made by ownCloud or Nextcloud</source>
        <translation>copie en conflit faite par ownCloud ou Nextcloud</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="66"/>
        <source>iCloud placeholder: not downloaded yet</source>
        <translation>fichier fantôme d’iCloud : pas encore téléchargé</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="67"/>
        <source>Nextcloud temporary: still syncing</source>
        <translation>fichier temporaire de Nextcloud : synchronisation en cours</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="70"/>
        <source>partial download: still syncing</source>
        <translation>téléchargement partiel : synchronisation en cours</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="75"/>
        <source>conflicted copy (iCloud style)</source>
        <translation>copie en conflit (façon iCloud)</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="80"/>
        <source>conflicted copy (OneDrive style)</source>
        <translation>copie en conflit (façon OneDrive)</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="85"/>
        <source>system file</source>
        <translation>fichier système</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="88"/>
        <source>not a claim file name</source>
        <translation>pas un nom de fichier de réservation</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="91"/>
        <source>vanished while reading</source>
        <translation>disparu pendant la lecture</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="115"/>
        <source>not a claim</source>
        <translation>pas une réservation</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="153"/>
        <source>cannot list the folder: {error}</source>
        <translation>impossible de lister le dossier : {error}</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="224"/>
        <source>{folder} is a link, not a folder: refused (remove it)</source>
        <translation>{folder} est un lien, pas un dossier : refusé (supprimez-le)</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="229"/>
        <source>{folder} is not a folder: refused (remove it)</source>
        <translation>{folder} n’est pas un dossier : refusé (supprimez-le)</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="249"/>
        <location filename="../lease/folder.py" line="264"/>
        <location filename="../lease/folder.py" line="292"/>
        <source>a link, not a file</source>
        <translation>un lien, pas un fichier</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="266"/>
        <source>a folder, not a file</source>
        <translation>un dossier, pas un fichier</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="251"/>
        <location filename="../lease/folder.py" line="269"/>
        <location filename="../lease/folder.py" line="276"/>
        <location filename="../lease/folder.py" line="300"/>
        <source>not a regular file</source>
        <translation>pas un fichier ordinaire</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="302"/>
        <source>cannot be read: permission denied</source>
        <translation>illisible : permission refusée</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="221"/>
        <location filename="../lease/folder.py" line="303"/>
        <source>cannot be read: {error}</source>
        <translation>illisible : {error}</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="92"/>
        <source>empty: still syncing</source>
        <translation>vide : synchronisation en cours</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="285"/>
        <source>too large ({size} bytes)</source>
        <translation>trop grand ({size} octets)</translation>
    </message>
    <message>
        <location filename="../lease/folder.py" line="284"/>
        <source>grew too large while reading</source>
        <translation>devenu trop grand pendant la lecture</translation>
    </message>
    <message>
        <location filename="../lease/lease.py" line="132"/>
        <source>{computer} is not a computer id: use a-z, 0-9 and _ (1 to 63)</source>
        <translation>{computer} n’est pas un identifiant d’ordinateur : utilisez a-z, 0-9 et _ (de 1 à 63)</translation>
    </message>
    <message>
        <location filename="../lease/lease.py" line="275"/>
        <source>this computer cannot declare itself gone</source>
        <translation>cet ordinateur ne peut pas se déclarer parti lui-même</translation>
    </message>
    <message>
        <location filename="../lease/lease.py" line="284"/>
        <source>no claim of {computer} was ever read here: nothing to forget</source>
        <translation>aucune réservation de {computer} n’a jamais été lue ici : rien à oublier</translation>
    </message>
    <message>
        <location filename="../lease/lease.py" line="629"/>
        <source>cannot write {path}: {reason}</source>
        <translation>impossible d’écrire {path} : {reason}</translation>
    </message>
    <message>
        <location filename="../lease/lease.py" line="774"/>
        <source>unknown part {part}: the parts are {parts}</source>
        <translation>partie inconnue {part} : les parties sont {parts}</translation>
    </message>
    <message>
        <location filename="../lease/lease.py" line="499"/>
        <source>overlay cannot be read: {error}</source>
        <translation>surcouche illisible : {error}</translation>
    </message>
    <message>
        <location filename="../lease/lease.py" line="296"/>
        <source>this process reads only: the tray or a command writes this computer&apos;s claims</source>
        <translation>ce processus ne fait que lire : c’est l’icône ou une commande qui écrit les réservations de cet ordinateur</translation>
    </message>
    <message>
        <location filename="../lease/lease.py" line="411"/>
        <source>{file} is missing from the sharing folder: invoices wait until it is back</source>
        <translation>{file} manque dans le dossier de partage : les factures attendent son retour</translation>
    </message>
    <message>
        <location filename="../lease/lease.py" line="419"/>
        <source>{file} cannot be used ({error}): invoices wait until it reads again</source>
        <translation>{file} est inutilisable ({error}) : les factures attendent qu’il se lise de nouveau</translation>
    </message>
    <message>
        <location filename="../lease/lease.py" line="427"/>
        <source>the sharing folder was sealed again by {computer}: join it again with its passphrase</source>
        <translation>le dossier de partage a été scellé de nouveau par {computer} : rejoignez-le de nouveau avec sa phrase secrète</translation>
    </message>
    <message>
        <location filename="../lease/lease.py" line="568"/>
        <source>does not match its file name</source>
        <translation>ne correspond pas à son nom de fichier</translation>
    </message>
    <message>
        <location filename="../lease/lease.py" line="600"/>
        <source>copied from another part ({file})</source>
        <translation>copiée d’une autre partie ({file})</translation>
    </message>
    <message>
        <location filename="../lease/lease.py" line="601"/>
        <source>copied from another name ({file})</source>
        <translation>copiée d’un autre nom ({file})</translation>
    </message>
    <message>
        <location filename="../lease/machine.py" line="973"/>
        <source>stale copy: seq {seq}, already read seq {known}</source>
        <translation>copie périmée : seq {seq}, seq {known} déjà lu</translation>
    </message>
    <message numerus="yes">
        <location filename="../lease/machine.py" line="510"/>
        <source>this computer&apos;s claim has no room to declare {computer} gone: %n computers are declared gone already</source>
        <translation>
            <numerusform>la réservation de cet ordinateur n’a plus de place pour déclarer {computer} parti : %n ordinateur est déjà déclaré parti</numerusform>
            <numerusform>la réservation de cet ordinateur n’a plus de place pour déclarer {computer} parti : %n ordinateurs sont déjà déclarés partis</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../lease/machine.py" line="438"/>
        <source>another computer writes this computer&apos;s claims ({computer}): its configuration was copied from this one; there, remove the file named computer in its configuration folder and run setup again</source>
        <translation>un autre ordinateur écrit les réservations de cet ordinateur ({computer}) : sa configuration a été copiée de celle-ci ; sur celui-là, supprimez le fichier nommé computer de son dossier de configuration et relancez setup</translation>
    </message>
    <message>
        <location filename="../lease/machine.py" line="449"/>
        <source>this computer&apos;s records mark on {part} is unknown (its state was lost): Sioul must not number here until the person confirms it (sioul-tray wrote {part} N --confirm)</source>
        <translation>la marque des enregistrements de cet ordinateur sur {part} est inconnue (son état a été perdu) : Sioul ne doit pas numéroter ici tant que la personne ne l’a pas confirmée (sioul-tray wrote {part} N --confirm)</translation>
    </message>
    <message>
        <location filename="../lease/machine.py" line="1498"/>
        <source>this computer&apos;s clock reads {clock}, not a time between 1970 and 2514: set it</source>
        <translation>l’horloge de cet ordinateur indique {clock}, pas une heure entre 1970 et 2514 : réglez-la</translation>
    </message>
    <message>
        <location filename="../lease/machine.py" line="1510"/>
        <source>active must be a time between 1970 and 2514, not {active}</source>
        <translation>active doit être une heure entre 1970 et 2514, pas {active}</translation>
    </message>
    <message>
        <location filename="../lease/machine.py" line="1524"/>
        <source>wrote must be a whole number from 0 to {top}, not {wrote}</source>
        <translation>wrote doit être un nombre entier de 0 à {top}, pas {wrote}</translation>
    </message>
    <message>
        <location filename="../lease/lease.py" line="638"/>
        <source>the sharing folder {folder} is missing</source>
        <translation>le dossier de partage {folder} est absent</translation>
    </message>
    <message>
        <location filename="../install.py" line="119"/>
        <location filename="../install.py" line="197"/>
        <location filename="../install.py" line="241"/>
        <location filename="../install.py" line="298"/>
        <location filename="../install.py" line="354"/>
        <location filename="../install.py" line="372"/>
        <location filename="../install.py" line="593"/>
        <location filename="../lease/lease.py" line="646"/>
        <location filename="../share/seal.py" line="434"/>
        <source>cannot write {path}: {error}</source>
        <translation>impossible d’écrire {path} : {error}</translation>
    </message>
    <message>
        <location filename="../lease/lease.py" line="659"/>
        <source>overlay cannot be written: {error}</source>
        <translation>impossible d’écrire la surcouche : {error}</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="137"/>
        <source>{file} is damaged: {what} is not text</source>
        <translation>{file} est endommagé : {what} n’est pas du texte</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="143"/>
        <source>{file} is damaged: {what} is not base64</source>
        <translation>{file} est endommagé : {what} n’est pas en base64</translation>
    </message>
    <message>
        <location filename="../commands.py" line="43"/>
        <source>SIOUL_PASSPHRASE is empty</source>
        <translation>SIOUL_PASSPHRASE est vide</translation>
    </message>
    <message>
        <location filename="../commands.py" line="47"/>
        <source>no passphrase: set SIOUL_PASSPHRASE, or run setup in a terminal</source>
        <translation>pas de phrase secrète : définissez SIOUL_PASSPHRASE, ou lancez setup dans un terminal</translation>
    </message>
    <message>
        <location filename="../commands.py" line="51"/>
        <location filename="../share/seal.py" line="244"/>
        <location filename="../tray/setup.py" line="105"/>
        <source>the passphrase is empty</source>
        <translation>la phrase secrète est vide</translation>
    </message>
    <message>
        <location filename="../commands.py" line="53"/>
        <location filename="../tray/setup.py" line="120"/>
        <source>the two passphrases differ; nothing was changed</source>
        <translation>les deux phrases secrètes diffèrent ; rien n’a été changé</translation>
    </message>
    <message>
        <location filename="../commands.py" line="61"/>
        <source>no passphrase given; nothing was changed</source>
        <translation>aucune phrase secrète saisie ; rien n’a été changé</translation>
    </message>
    <message>
        <location filename="../commands.py" line="70"/>
        <source>the passphrase is not valid text (UTF-8); nothing was changed</source>
        <translation>la phrase secrète n’est pas un texte valide (UTF-8) ; rien n’a été changé</translation>
    </message>
    <message>
        <location filename="../commands.py" line="77"/>
        <source>setup needs --share DIR, --name NAME, or both</source>
        <translation>setup demande --share DOSSIER, --name NOM, ou les deux</translation>
    </message>
    <message>
        <location filename="../commands.py" line="81"/>
        <source>--name needs a name of at most 64 bytes</source>
        <translation>--name demande un nom de 64 octets au plus</translation>
    </message>
    <message>
        <location filename="../commands.py" line="85"/>
        <source>--share needs the path of a folder your sync tool syncs</source>
        <translation>--share demande le chemin d’un dossier que votre outil de synchronisation synchronise</translation>
    </message>
    <message>
        <location filename="../commands.py" line="139"/>
        <location filename="../commands.py" line="145"/>
        <source>{folder} is not a folder</source>
        <translation>{folder} n’est pas un dossier</translation>
    </message>
    <message>
        <location filename="../commands.py" line="148"/>
        <location filename="../tray/setup.py" line="109"/>
        <source>{folder} does not exist: choose a folder your sync tool syncs</source>
        <translation>{folder} n’existe pas : choisissez un dossier que votre outil de synchronisation synchronise</translation>
    </message>
    <message>
        <location filename="../commands.py" line="155"/>
        <location filename="../tray/setup.py" line="126"/>
        <source>cannot make {folder}: {error}</source>
        <translation>impossible de créer {folder} : {error}</translation>
    </message>
    <message>
        <location filename="../commands.py" line="295"/>
        <source>the history cannot be read: {reason}</source>
        <translation>l’historique est illisible : {reason}</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="410"/>
        <location filename="../share/seal.py" line="429"/>
        <source>{path} exists already: join it with its passphrase</source>
        <translation>{path} existe déjà : rejoignez-le avec sa phrase secrète</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="288"/>
        <location filename="../share/seal.py" line="505"/>
        <source>the salt</source>
        <translation>le sel</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="163"/>
        <source>the passphrase is not valid text (UTF-8)</source>
        <translation>la phrase secrète n’est pas un texte valide (UTF-8)</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="169"/>
        <source>this computer cannot make the key derivation (scrypt n=2^{cost}, r={r}, p={p}): not enough memory</source>
        <translation>cet ordinateur ne peut pas faire la dérivation de clé (scrypt n=2^{cost}, r={r}, p={p}) : mémoire insuffisante</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="249"/>
        <source>the passphrase is too short: use at least {n} characters (a few words are easy to remember)</source>
        <translation>la phrase secrète est trop courte : utilisez au moins {n} caractères (quelques mots se retiennent facilement)</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="491"/>
        <source>the folder id</source>
        <translation>l’identifiant du dossier</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="492"/>
        <source>the creator</source>
        <translation>le créateur</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="493"/>
        <source>the key id</source>
        <translation>l’identifiant de la clé</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="498"/>
        <source>{path} is damaged: {what} is not valid</source>
        <translation>{path} est endommagé : {what} n’est pas valide</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="502"/>
        <source>{path} is damaged: unknown key derivation</source>
        <translation>{path} est endommagé : dérivation de clé inconnue</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="299"/>
        <source>{path} asks for a key derivation this version does not make (scrypt n=2^{cost}, r={r}, p={p}): refused</source>
        <translation>{path} demande une dérivation de clé que cette version ne fait pas (scrypt n=2^{cost}, r={r}, p={p}) : refusé</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="307"/>
        <location filename="../share/seal.py" line="506"/>
        <source>the check value</source>
        <translation>la valeur de contrôle</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="315"/>
        <source>wrong passphrase for {folder}</source>
        <translation>mauvaise phrase secrète pour {folder}</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="317"/>
        <location filename="../share/seal.py" line="507"/>
        <source>the nonce</source>
        <translation>le nonce</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="318"/>
        <location filename="../share/seal.py" line="508"/>
        <source>the wrapped key</source>
        <translation>la clé enveloppée</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="326"/>
        <source>{path} is damaged: the passphrase fits but the key does not open</source>
        <translation>{path} est endommagé : la phrase secrète convient mais la clé ne s’ouvre pas</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="335"/>
        <source>{path} is damaged: its key id is not its key&apos;s</source>
        <translation>{path} est endommagé : son identifiant de clé n’est pas celui de sa clé</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="361"/>
        <source>the key kept on this computer does not open {folder}</source>
        <translation>la clé gardée sur cet ordinateur n’ouvre pas {folder}</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="376"/>
        <source>truncated: still syncing or damaged</source>
        <translation>tronqué : synchronisation en cours ou fichier endommagé</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="379"/>
        <source>not a Sioul claim</source>
        <translation>pas une réservation Sioul</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="382"/>
        <source>made by a newer version of sioul-tray</source>
        <translation>fait par une version plus récente de sioul-tray</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="384"/>
        <source>unknown claim format {version}</source>
        <translation>format de réservation inconnu {version}</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="386"/>
        <source>sealed with another key (another sharing folder&apos;s seal)</source>
        <translation>scellé avec une autre clé (le sceau d’un autre dossier de partage)</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="393"/>
        <source>damaged or still syncing</source>
        <translation>endommagé ou synchronisation en cours</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="405"/>
        <source>{path} is damaged or still arriving: wait for the sync to bring it whole, then join the folder; it is never sealed over</source>
        <translation>{path} est endommagé ou encore en cours d’arrivée : attendez que la synchronisation l’apporte en entier, puis rejoignez le dossier ; il n’est jamais scellé par-dessus</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="415"/>
        <source>{folder} holds claims but no {file}: the sync has not brought the seal yet; wait for it, then join the folder</source>
        <translation>{folder} contient des réservations mais pas de {file} : la synchronisation n’a pas encore apporté le sceau ; attendez-le, puis rejoignez le dossier</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="447"/>
        <source>{folder} has no {file}: it is not a Sioul sharing folder yet</source>
        <translation>{folder} n’a pas de {file} : ce n’est pas encore un dossier de partage Sioul</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="460"/>
        <source>{path} is empty: the sync may still be bringing it (wait a minute); if it stays empty, a setup that failed left it: remove it, then set up again</source>
        <translation>{path} est vide : la synchronisation est peut-être encore en train de l’apporter (attendez une minute) ; s’il reste vide, c’est une configuration échouée qui l’a laissé : supprimez-le, puis configurez de nouveau</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="470"/>
        <source>{path} is damaged: not a Sioul seal</source>
        <translation>{path} est endommagé : ce n’est pas un sceau Sioul</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="473"/>
        <source>{path} is damaged: no version</source>
        <translation>{path} est endommagé : pas de version</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="477"/>
        <source>{path} was made by a newer version of sioul-tray: update this one</source>
        <translation>{path} a été fait par une version plus récente de sioul-tray : mettez celle-ci à jour</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="482"/>
        <source>{path} is damaged: {key} is missing</source>
        <translation>{path} est endommagé : {key} manque</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="504"/>
        <source>{path} is damaged: unknown key wrapping</source>
        <translation>{path} est endommagé : enveloppe de clé inconnue</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="518"/>
        <source>{path} is damaged: its timing is not valid</source>
        <translation>{path} est endommagé : sa cadence n’est pas valide</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="532"/>
        <source>{path} is damaged: {what} is cut short</source>
        <translation>{path} est endommagé : longueur insuffisante pour {what}</translation>
    </message>
    <message>
        <location filename="../share/seal.py" line="534"/>
        <source>{path} is damaged: {what} is too long</source>
        <translation>{path} est endommagé : longueur excessive pour {what}</translation>
    </message>
    <message>
        <location filename="../dirs.py" line="76"/>
        <source>the installation&apos;s folder {home} is not valid UTF-8: choose a folder whose name is</source>
        <translation>le nom du dossier de l’installation {home} n’est pas en UTF-8 valide : choisissez un dossier dont le nom l’est</translation>
    </message>
    <message>
        <location filename="../tray/autostart.py" line="219"/>
        <source>{path} cannot be written: the command it starts is in a folder whose name is not valid UTF-8</source>
        <translation>impossible d’écrire {path} : la commande qu’il lance est dans un dossier dont le nom n’est pas en UTF-8 valide</translation>
    </message>
</context>
<context>
    <name>Menu</name>
    <message>
        <location filename="../tray/model.py" line="172"/>
        <source>Sharing folder: {error}</source>
        <translation>Dossier de partage : {error}</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="174"/>
        <source>This computer&apos;s state: {problem}</source>
        <translation>État de cet ordinateur : {problem}</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="179"/>
        <source>{computer}&apos;s clock is {span} ahead of this one</source>
        <translation>L’horloge de {computer} a {span} d’avance sur celle-ci</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="181"/>
        <source>{computer}&apos;s clock is {span} behind this one</source>
        <translation>L’horloge de {computer} a {span} de retard sur celle-ci</translation>
    </message>
    <message numerus="yes">
        <location filename="../tray/model.py" line="188"/>
        <source>%n files in the sharing folder do not read</source>
        <translation>
            <numerusform>%n fichier du dossier de partage est illisible</numerusform>
            <numerusform>%n fichiers du dossier de partage sont illisibles</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="195"/>
        <source>Idle time unknown: counting from the session start</source>
        <translation>Inactivité inconnue : décompte depuis le début de la session</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="206"/>
        <source>Closed here by “sioul-tray close”: medicines and invoices</source>
        <translation>Fermés ici par « sioul-tray close » : médicaments et factures</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="208"/>
        <source>Closed here by “sioul-tray close”: medicines</source>
        <translation>Fermés ici par « sioul-tray close » : médicaments</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="209"/>
        <source>Closed here by “sioul-tray close”: invoices</source>
        <translation>Fermées ici par « sioul-tray close » : factures</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="218"/>
        <source>Reopen medicines and invoices here</source>
        <translation>Rouvrir médicaments et factures ici</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="220"/>
        <source>Reopen medicines here</source>
        <translation>Rouvrir les médicaments ici</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="221"/>
        <source>Reopen invoices here</source>
        <translation>Rouvrir les factures ici</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="302"/>
        <source>This computer: {name}</source>
        <translation>Cet ordinateur : {name}</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="322"/>
        <location filename="../tray/model.py" line="604"/>
        <source>Make invoices here…</source>
        <translation>Faire les factures ici…</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="324"/>
        <source>Treat {computer} as gone for good…</source>
        <translation>Considérer {computer} comme parti pour de bon…</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="383"/>
        <source>{computer} numbered last: started, it numbers invoices. Make them here instead?

This computer then numbers them once it has heard {computer}: start it for a minute with its sync running.</source>
        <translation>{computer} a numéroté en dernier : une fois démarré, il numérote les factures. Les faire ici à la place ?

Cet ordinateur les numérote alors dès qu’il a entendu {computer} : démarrez-le une minute avec sa synchronisation en marche.</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="393"/>
        <source>{computer} keeps invoices but does not number them: nothing numbers them there until sioul-tray runs there. Make them here instead?

This computer starts once every other computer has confirmed it, in about 2 minutes while they are on.</source>
        <translation>{computer} tient les factures mais ne les numérote pas : rien ne les y numérote tant que sioul-tray n’y tourne pas. Les faire ici à la place ?

Cet ordinateur commence quand tous les autres ordinateurs l’ont confirmé, dans 2 minutes environ s’ils sont allumés.</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="400"/>
        <source>{computer} keeps invoices but does not number them yet. Make them here instead?

This computer starts once every other computer has confirmed it, in about 2 minutes while they are on.</source>
        <translation>{computer} tient les factures mais ne les numérote pas encore. Les faire ici à la place ?

Cet ordinateur commence quand tous les autres ordinateurs l’ont confirmé, dans 2 minutes environ s’ils sont allumés.</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="405"/>
        <source>{computer} makes invoices now. Make them here instead?

{computer} stops numbering as soon as it sees this; this computer starts once every other computer has confirmed it, in about 2 minutes while they are on.</source>
        <translation>{computer} fait les factures en ce moment. Les faire ici à la place ?

{computer} arrête de numéroter dès qu’il le voit ; cet ordinateur commence quand tous les autres ordinateurs l’ont confirmé, dans 2 minutes environ s’ils sont allumés.</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="437"/>
        <source>Tomorrow, invoices are numbered here once this computer has heard the others: start them with their sync running.</source>
        <translation>Demain, les factures sont numérotées ici dès que cet ordinateur a entendu les autres : démarrez-les avec leur synchronisation en marche.</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="441"/>
        <source>Tomorrow, invoices are numbered on this computer: the others wait for it to start.</source>
        <translation>Demain, les factures sont numérotées sur cet ordinateur : les autres attendent qu’il démarre.</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="448"/>
        <source>Tomorrow, invoices are numbered on {computer}, which numbered last: this computer waits for it.</source>
        <translation>Demain, les factures sont numérotées sur {computer}, qui a numéroté en dernier : cet ordinateur l’attend.</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="453"/>
        <source>Tomorrow, invoices are numbered on {computer}: this computer waits for it. Make them here instead?</source>
        <translation>Demain, les factures sont numérotées sur {computer} : cet ordinateur l’attend. Les faire ici à la place ?</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="606"/>
        <source>Reopen here</source>
        <translation>Rouvrir ici</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="329"/>
        <location filename="../tray/model.py" line="605"/>
        <source>Computers…</source>
        <translation>Ordinateurs…</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="330"/>
        <source>Open sharing folder</source>
        <translation>Ouvrir le dossier de partage</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="331"/>
        <source>Change sharing folder…</source>
        <translation>Changer de dossier de partage…</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="333"/>
        <source>Start at login</source>
        <translation>Lancer à l’ouverture de session</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="334"/>
        <source>About sioul-tray</source>
        <translation>À propos de sioul-tray</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="335"/>
        <source>Quit</source>
        <translation>Quitter</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="493"/>
        <source>No other computer will remind medicines or number invoices while sioul-tray is stopped here.</source>
        <translation>Aucun autre ordinateur ne rappellera les médicaments ni ne numérotera les factures tant que sioul-tray est arrêté ici.</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="497"/>
        <source>No other computer will remind medicines while sioul-tray is stopped here.</source>
        <translation>Aucun autre ordinateur ne rappellera les médicaments tant que sioul-tray est arrêté ici.</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="499"/>
        <source>No other computer will number invoices while sioul-tray is stopped here.</source>
        <translation>Aucun autre ordinateur ne numérotera les factures tant que sioul-tray est arrêté ici.</translation>
    </message>
    <message>
        <location filename="../tray/model.py" line="427"/>
        <location filename="../tray/model.py" line="482"/>
        <source>Quit anyway?</source>
        <translation>Quitter quand même ?</translation>
    </message>
</context>
<context>
    <name>Notification</name>
    <message>
        <location filename="../phrases.py" line="277"/>
        <source>Medicine reminders are now on {computer}</source>
        <translation>Les rappels de médicaments se font maintenant sur {computer}</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="278"/>
        <source>Invoices are now made on {computer}</source>
        <translation>Les factures se font maintenant sur {computer}</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="281"/>
        <source>This computer no longer reminds medicines.</source>
        <translation>Cet ordinateur ne rappelle plus les médicaments.</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="282"/>
        <source>This computer no longer makes invoices.</source>
        <translation>Cet ordinateur ne fait plus les factures.</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="285"/>
        <source>Medicine reminders are here now</source>
        <translation>Les rappels de médicaments sont maintenant ici</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="286"/>
        <source>Invoices are made here now</source>
        <translation>Les factures sont maintenant faites ici</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="289"/>
        <source>Medicine reminders paused here</source>
        <translation>Rappels de médicaments en pause ici</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="290"/>
        <source>Invoices paused here</source>
        <translation>Factures en pause ici</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="298"/>
        <source>The next computer you use takes them over.</source>
        <translation>Le prochain ordinateur dont vous vous servez les reprend.</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="299"/>
        <source>Choose “Make invoices here” on the computer that should number them.</source>
        <translation>Choisissez « Faire les factures ici » sur l’ordinateur qui doit les numéroter.</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="293"/>
        <source>No computer keeps medicines now</source>
        <translation>Aucun ordinateur ne tient les médicaments maintenant</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="262"/>
        <source>Medicine reminders move to {computer}</source>
        <translation>Les rappels de médicaments passent sur {computer}</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="263"/>
        <source>Invoices move to {computer}</source>
        <translation>Les factures passent sur {computer}</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="267"/>
        <source>It reminds them once its sioul-tray has kept them for 2 minutes; while no sioul-tray runs there, nothing reminds them.</source>
        <translation>Il les rappelle quand son sioul-tray les a tenus 2 minutes ; tant qu’aucun sioul-tray n’y tourne, rien ne les rappelle.</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="271"/>
        <source>It numbers them once its sioul-tray has kept them for 2 minutes; while no sioul-tray runs there, nothing numbers them.</source>
        <translation>Il les numérote quand son sioul-tray les a tenues 2 minutes ; tant qu’aucun sioul-tray n’y tourne, rien ne les numérote.</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="294"/>
        <source>No computer keeps invoices now</source>
        <translation>Aucun ordinateur ne tient les factures maintenant</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="304"/>
        <source>Invoices stopped: the seal changed</source>
        <translation>Factures arrêtées : le sceau a changé</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="335"/>
        <source>It keeps medicines and invoices and has not been heard from since {time}. Is sioul-tray running there, and its sync? If it has stopped, nothing reminds or numbers them: choose “Make invoices here” on the computer that should number them.</source>
        <translation>Il tient les médicaments et les factures et n’a pas été entendu depuis {time}. sioul-tray y tourne-t-il, et sa synchronisation ? S’il s’est arrêté, rien ne les rappelle ni ne les numérote : choisissez « Faire les factures ici » sur l’ordinateur qui doit les numéroter.</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="341"/>
        <source>It keeps medicines and has not been heard from since {time}. Is sioul-tray running there, and its sync?</source>
        <translation>Il tient les médicaments et n’a pas été entendu depuis {time}. sioul-tray y tourne-t-il, et sa synchronisation ?</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="346"/>
        <source>It keeps invoices and has not been heard from since {time}. Is sioul-tray running there, and its sync? If it has stopped, nothing numbers them: choose “Make invoices here” on the computer that should number them.</source>
        <translation>Il tient les factures et n’a pas été entendu depuis {time}. sioul-tray y tourne-t-il, et sa synchronisation ? S’il s’est arrêté, rien ne les numérote : choisissez « Faire les factures ici » sur l’ordinateur qui doit les numéroter.</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="350"/>
        <source>{computer} is silent</source>
        <translation>{computer} est silencieux</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="358"/>
        <source>{computer} keeps invoices but does not number them</source>
        <translation>{computer} tient les factures mais ne les numérote pas</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="360"/>
        <source>Nothing numbers invoices until sioul-tray runs on {computer}: start it there, or choose “Make invoices here”.</source>
        <translation>Rien ne numérote les factures tant que sioul-tray ne tourne pas sur {computer} : démarrez-le là-bas, ou choisissez « Faire les factures ici ».</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="364"/>
        <source>{computer} keeps medicines but does not remind them</source>
        <translation>{computer} tient les médicaments mais ne les rappelle pas</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="366"/>
        <source>Nothing reminds medicines until sioul-tray runs on {computer}: start it there.</source>
        <translation>Rien ne rappelle les médicaments tant que sioul-tray ne tourne pas sur {computer} : démarrez-le là-bas.</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="375"/>
        <source>Medicines and invoices are closed on this computer</source>
        <translation>Médicaments et factures sont fermés sur cet ordinateur</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="377"/>
        <source>Medicines are closed on this computer</source>
        <translation>Les médicaments sont fermés sur cet ordinateur</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="379"/>
        <source>Invoices are closed on this computer</source>
        <translation>Les factures sont fermées sur cet ordinateur</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="381"/>
        <source>Closed by “sioul-tray close”: this computer takes no part in them until you reopen them (“Reopen … here” in the menu, or sioul-tray renew).</source>
        <translation>Fermés par « sioul-tray close » : cet ordinateur n’y prend plus part tant que vous ne les rouvrez pas (« Rouvrir … ici » dans le menu, ou sioul-tray renew).</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="391"/>
        <source>{computer} has not been heard from since {time}. If it is gone for good, say so in the menu.</source>
        <translation>Pas de nouvelles de {computer} depuis {time}. S’il est parti pour de bon, dites-le dans le menu.</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="396"/>
        <source>{computer} has not been heard from yet. If it is gone for good, say so in the menu.</source>
        <translation>Pas encore de nouvelles de {computer}. S’il est parti pour de bon, dites-le dans le menu.</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="399"/>
        <source>Invoices wait for {computer}</source>
        <translation>Les factures attendent {computer}</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="303"/>
        <source>A claim in the sharing folder does not read</source>
        <translation>Une réservation du dossier de partage est illisible</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="406"/>
        <source>It is {span} ahead of this computer&apos;s clock.</source>
        <translation>Elle a {span} d’avance sur l’horloge de cet ordinateur.</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="408"/>
        <source>It is {span} behind this computer&apos;s clock.</source>
        <translation>Elle a {span} de retard sur l’horloge de cet ordinateur.</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="410"/>
        <source>{computer}&apos;s clock is off</source>
        <translation>L’horloge de {computer} est décalée</translation>
    </message>
</context>
<context>
    <name>Phrase</name>
    <message>
        <location filename="../phrases.py" line="24"/>
        <source>Medicines</source>
        <translation>Médicaments</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="26"/>
        <source>Invoices</source>
        <translation>Factures</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="48"/>
        <source>{name} ({computer})</source>
        <translation>{name} ({computer})</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="61"/>
        <source>{part}: no computer keeps them</source>
        <translation>{part} : aucun ordinateur ne les tient</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="126"/>
        <source>{part}: {computer} (not numbering yet)</source>
        <translation>{part} : {computer} (ne numérote pas encore)</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="128"/>
        <source>{part}: {computer} (not reminding yet)</source>
        <translation>{part} : {computer} (ne rappelle pas encore)</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="131"/>
        <source>{part}: {computer}</source>
        <translation>{part} : {computer}</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="133"/>
        <source>{part}: {computer} (since {time})</source>
        <translation>{part} : {computer} (depuis {time})</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="65"/>
        <source>{part}: here</source>
        <translation>{part} : ici</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="68"/>
        <source>{part}: here (settling)</source>
        <translation>{part} : ici (stabilisation)</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="71"/>
        <source>{part}: here in a moment</source>
        <translation>{part} : ici dans un instant</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="72"/>
        <source>{part}: here in {left}</source>
        <translation>{part} : ici dans {left}</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="75"/>
        <source>{part}: here from {time} (settling)</source>
        <translation>{part} : ici à partir de {time} (stabilisation)</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="84"/>
        <source>{part}: here, {waiting} (is the sync running?)</source>
        <translation>{part} : ici, {waiting} (la synchronisation tourne-t-elle ?)</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="87"/>
        <location filename="../phrases.py" line="189"/>
        <source>{part}: here, {waiting}</source>
        <translation>{part} : ici, {waiting}</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="89"/>
        <source>{part}: here, waiting to hear another computer</source>
        <translation>{part} : ici, en attente de nouvelles d’un autre ordinateur</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="91"/>
        <source>{part}: here, paused while you are away</source>
        <translation>{part} : ici, en pause pendant votre absence</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="93"/>
        <source>{part}: stopped, this computer&apos;s records mark is unknown</source>
        <translation>{part} : arrêtées, la marque des enregistrements de cet ordinateur est inconnue</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="97"/>
        <source>{part}: stopped, another computer uses this computer&apos;s id</source>
        <translation>{part} : arrêtées, un autre ordinateur utilise l’identifiant de celui-ci</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="100"/>
        <source>{part}: stopped, the sharing folder&apos;s seal changed</source>
        <translation>{part} : arrêtées, le sceau du dossier de partage a changé</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="114"/>
        <source>{part}: {computer}, silent</source>
        <translation>{part} : {computer}, silencieux</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="115"/>
        <source>{part}: {computer}, silent since {time}</source>
        <translation>{part} : {computer}, silencieux depuis {time}</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="121"/>
        <source>{part}: {computer}, not numbering (is sioul-tray running there?)</source>
        <translation>{part} : {computer}, ne numérote pas (sioul-tray y tourne-t-il ?)</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="123"/>
        <source>{part}: {computer}, not reminding (is sioul-tray running there?)</source>
        <translation>{part} : {computer}, ne rappelle pas (sioul-tray y tourne-t-il ?)</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="137"/>
        <source>{part}: {computer} (seen since {time})</source>
        <translation>{part} : {computer} (vu ici depuis {time})</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="161"/>
        <source>{name}, declared gone: start it with its sync</source>
        <translation>{name}, déclaré parti : lancez-le et sa synchro</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="163"/>
        <source>{name}, declared gone: counts as gone from {time}</source>
        <translation>{name}, déclaré parti : compte comme parti à partir de {time}</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="216"/>
        <source>{part}: waiting for {computer}, last to number: start it with its sync</source>
        <translation>{part} : lancez {computer} avec sa synchro, il a numéroté en dernier</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="171"/>
        <source>{name}, closed: start it for a minute with its sync running</source>
        <translation>{name}, fermé : démarrez-le une minute avec sa synchronisation en marche</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="175"/>
        <source>{name}, last heard {time}</source>
        <translation>{name}, dernières nouvelles à {time}</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="176"/>
        <source>{name}, not heard yet</source>
        <translation>{name}, pas encore de nouvelles</translation>
    </message>
    <message numerus="yes">
        <location filename="../phrases.py" line="146"/>
        <location filename="../phrases.py" line="196"/>
        <source>%n more</source>
        <translation>
            <numerusform>%n autre</numerusform>
            <numerusform>%n autres</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../phrases.py" line="147"/>
        <source>waiting for {computers}</source>
        <translation>en attente de {computers}</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="155"/>
        <source>a computer the others know ({id}), not heard here yet</source>
        <translation>un ordinateur que les autres connaissent ({id}), pas encore entendu ici</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="168"/>
        <source>{name}, last to number: start it with its sync</source>
        <translation>{name}, dernier à numéroter : lancez-le avec sa synchro</translation>
    </message>
    <message numerus="yes">
        <location filename="../phrases.py" line="192"/>
        <source>{part}: here, waiting for %n computers</source>
        <translation>
            <numerusform>{part} : ici, en attente de %n ordinateur</numerusform>
            <numerusform>{part} : ici, en attente de %n ordinateurs</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../phrases.py" line="198"/>
        <source>Nothing heard from them lately: is the sync running?</source>
        <translation>Aucune nouvelle récente : la synchronisation tourne-t-elle ?</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="222"/>
        <source>{part}: kept here; no tray runs, so nothing acts here</source>
        <translation>{part} : gardées ici ; aucune icône ne tourne, donc rien n’agit ici</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="230"/>
        <source>Syncthing does not answer (is it running?)</source>
        <translation>Syncthing ne répond pas (est-il lancé ?)</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="233"/>
        <source>Syncthing has paused the sharing folder</source>
        <translation>Syncthing a mis en pause le dossier de partage</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="237"/>
        <source>Syncthing has never been connected to {device}</source>
        <translation>Syncthing n’a jamais été connecté à {device}</translation>
    </message>
    <message>
        <location filename="../phrases.py" line="243"/>
        <source>Syncthing is not connected to {device} since {time}</source>
        <translation>Syncthing n’est plus connecté à {device} depuis {time}</translation>
    </message>
</context>
<context>
    <name>Setup</name>
    <message>
        <location filename="../tray/setup.py" line="185"/>
        <source>Sharing folder — sioul-tray</source>
        <translation>Dossier de partage — sioul-tray</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="220"/>
        <source>Another folder…</source>
        <translation>Un autre dossier…</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="89"/>
        <source>Too short: at least 8 characters.</source>
        <translation>Trop courte : 8 caractères au moins.</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="92"/>
        <source>Strong.</source>
        <translation>Solide.</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="94"/>
        <source>Fair: one or two more words make it much harder to guess.</source>
        <translation>Correcte : un ou deux mots de plus la rendent bien plus difficile à deviner.</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="95"/>
        <source>Weak: a few words of your own (four or more) are far harder to guess.</source>
        <translation>Faible : quelques mots à vous (quatre ou plus) sont bien plus difficiles à deviner.</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="189"/>
        <source>Choose the sharing folder</source>
        <translation>Choisissez le dossier de partage</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="196"/>
        <source>The folder your sync tool (Syncthing, Dropbox, OneDrive, Nextcloud, iCloud Drive, Google Drive…) shares between your computers. Sioul keeps its files in it.</source>
        <translation>Le dossier que votre outil de synchronisation (Syncthing, Dropbox, OneDrive, Nextcloud, iCloud Drive, Google Drive…) partage entre vos ordinateurs. Sioul y range ses fichiers.</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="213"/>
        <source>No sync tool&apos;s folder was found on this computer. Choose the folder your sync tool shares with “Another folder…”.</source>
        <translation>Aucun dossier d’outil de synchronisation n’a été trouvé sur cet ordinateur. Choisissez le dossier que votre outil partage avec « Un autre dossier… ».</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="226"/>
        <source>&amp;Folder:</source>
        <translation>&amp;Dossier :</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="237"/>
        <source>&amp;Passphrase:</source>
        <translation>&amp;Phrase secrète :</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="240"/>
        <source>Passphrase &amp;again:</source>
        <translation>Phrase secrète, &amp;encore :</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="250"/>
        <source>S&amp;how the passphrase</source>
        <translation>&amp;Montrer la phrase secrète</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="253"/>
        <source>This computer&apos;s &amp;name:</source>
        <translation>&amp;Nom de cet ordinateur :</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="258"/>
        <source>&amp;Start sioul-tray when I log in</source>
        <translation>&amp;Lancer sioul-tray à l’ouverture de session</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="262"/>
        <source>While sioul-tray is not running on this computer, it reminds no medicines and numbers no invoices.</source>
        <translation>Tant que sioul-tray ne tourne pas sur cet ordinateur, il ne rappelle aucun médicament et ne numérote aucune facture.</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="298"/>
        <source>Sharing folder</source>
        <translation>Dossier de partage</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="307"/>
        <source>not needed to join</source>
        <translation>inutile pour rejoindre</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="312"/>
        <source>This folder is shared already: this computer joins it with the passphrase chosen on the first computer.</source>
        <translation>Ce dossier est déjà partagé : cet ordinateur le rejoint avec la phrase secrète choisie sur le premier ordinateur.</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="316"/>
        <source>A new shared folder is created here, sealed with this passphrase. Type it twice and keep it: it cannot be recovered. A second computer? First wait for this folder&apos;s sioul.seal to arrive through the sync.</source>
        <translation>Un nouveau dossier partagé est créé ici, scellé par cette phrase secrète. Tapez-la deux fois et gardez-la : elle ne peut pas être retrouvée. Un deuxième ordinateur ? Attendez d’abord que le sioul.seal de ce dossier arrive par la synchronisation.</translation>
    </message>
    <message>
        <location filename="../tray/setup.py" line="343"/>
        <source>{error}. Nothing was changed.</source>
        <translation>{error}. Rien n’a été changé.</translation>
    </message>
</context>
<context>
    <name>Time</name>
    <message>
        <location filename="../timefmt.py" line="25"/>
        <source>just now</source>
        <translation>à l’instant</translation>
    </message>
    <message numerus="yes">
        <location filename="../timefmt.py" line="29"/>
        <source>in %n min</source>
        <translation>
            <numerusform>dans %n min</numerusform>
            <numerusform>dans %n min</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../timefmt.py" line="29"/>
        <source>%n min ago</source>
        <translation>
            <numerusform>il y a %n min</numerusform>
            <numerusform>il y a %n min</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../timefmt.py" line="32"/>
        <source>in %n h</source>
        <translation>
            <numerusform>dans %n h</numerusform>
            <numerusform>dans %n h</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../timefmt.py" line="32"/>
        <source>%n h ago</source>
        <translation>
            <numerusform>il y a %n h</numerusform>
            <numerusform>il y a %n h</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../timefmt.py" line="34"/>
        <source>in %n days</source>
        <translation>
            <numerusform>dans %n jour</numerusform>
            <numerusform>dans %n jours</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../timefmt.py" line="34"/>
        <source>%n days ago</source>
        <translation>
            <numerusform>il y a %n jour</numerusform>
            <numerusform>il y a %n jours</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../timefmt.py" line="43"/>
        <location filename="../timefmt.py" line="53"/>
        <source>%n s</source>
        <translation>
            <numerusform>%n s</numerusform>
            <numerusform>%n s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../timefmt.py" line="45"/>
        <location filename="../timefmt.py" line="55"/>
        <source>%n min</source>
        <translation>
            <numerusform>%n min</numerusform>
            <numerusform>%n min</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../timefmt.py" line="46"/>
        <source>{minutes} min {seconds} s</source>
        <translation>{minutes} min {seconds} s</translation>
    </message>
    <message numerus="yes">
        <location filename="../timefmt.py" line="56"/>
        <source>%n h</source>
        <translation>
            <numerusform>%n h</numerusform>
            <numerusform>%n h</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Tour</name>
    <message>
        <location filename="../tray/demo.py" line="43"/>
        <source>You are here and make invoices here; Laptop runs too</source>
        <translation>Vous êtes ici et faites les factures ici ; Laptop tourne aussi</translation>
    </message>
    <message>
        <location filename="../tray/demo.py" line="45"/>
        <source>You move to Laptop: medicines follow</source>
        <translation>Vous passez sur Laptop : les médicaments suivent</translation>
    </message>
    <message>
        <location filename="../tray/demo.py" line="47"/>
        <source>You come back; Office PC starts and takes invoices</source>
        <translation>Vous revenez ; Office PC démarre et prend les factures</translation>
    </message>
    <message>
        <location filename="../tray/demo.py" line="48"/>
        <source>Laptop goes to sleep (closes)</source>
        <translation>Laptop se met en veille (ferme ses réservations)</translation>
    </message>
    <message>
        <location filename="../tray/demo.py" line="50"/>
        <source>Office PC crashes without closing: it still holds invoices</source>
        <translation>Office PC plante sans fermer : il tient encore les factures</translation>
    </message>
    <message>
        <location filename="../tray/demo.py" line="52"/>
        <source>You make invoices here: they wait for Office PC, which may be gone for good</source>
        <translation>Vous faites les factures ici : elles attendent Office PC, peut-être parti pour de bon</translation>
    </message>
    <message>
        <location filename="../tray/demo.py" line="54"/>
        <source>Laptop is back</source>
        <translation>Laptop est de retour</translation>
    </message>
    <message>
        <location filename="../tray/demo.py" line="86"/>
        <source>This computer</source>
        <translation>Cet ordinateur</translation>
    </message>
    <message>
        <location filename="../tray/demo.py" line="151"/>
        <source>demo: {caption}</source>
        <translation>démo : {caption}</translation>
    </message>
    <message>
        <location filename="../tray/demo.py" line="166"/>
        <source>sioul-tray demo: a temporary folder in {folder}; quit from the menu or Ctrl+C</source>
        <translation>démo de sioul-tray : un dossier temporaire dans {folder} ; quittez par le menu ou Ctrl+C</translation>
    </message>
</context>
</TS>
